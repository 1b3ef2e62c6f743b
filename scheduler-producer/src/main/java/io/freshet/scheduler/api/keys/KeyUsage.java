package io.freshet.scheduler.api.keys;

import io.freshet.kit.security.KeyUse;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code last_used_at} without a write per request: each use only records the time in memory, and
 * {@link #flush} writes the latest use of every key in one batch (every {@code
 * freshet.keys.last-used-flush}). What a crash loses is at most one interval of "last used".
 */
class KeyUsage implements KeyUse {

  private final Map<String, Instant> pending = new ConcurrentHashMap<>();
  private final KeyRepository keys;
  private final Clock clock;

  KeyUsage(KeyRepository keys, Clock clock) {
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public void used(String keyId) {
    pending.put(keyId, clock.instant());
  }

  /** Writes the collected uses; those that fail to be written are kept for the next flush. */
  void flush() {
    Map<String, Instant> batch = new HashMap<>();
    for (String id : pending.keySet()) {
      Instant at = pending.remove(id);
      if (at != null) {
        batch.put(id, at);
      }
    }
    try {
      keys.touch(batch);
    } catch (RuntimeException e) {
      batch.forEach((id, at) -> pending.merge(id, at, (a, b) -> a.isAfter(b) ? a : b));
      throw e;
    }
  }
}
