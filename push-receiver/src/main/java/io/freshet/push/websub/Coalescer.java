package io.freshet.push.websub;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Notifications for one source within {@code window} of the last one let through coalesce into that
 * one: a hub that announces ten items in a second causes one fetch, and a replayed notification
 * inside the window causes none. Remembers at most {@code capacity} sources (the least recently
 * admitted are forgotten first, which can only let an extra fetch through).
 */
public final class Coalescer {

  private final Clock clock;
  private final Duration window;
  private final Map<String, Instant> lastAdmitted;

  public Coalescer(Clock clock, Duration window, int capacity) {
    this.clock = clock;
    this.window = window;
    this.lastAdmitted =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
            return size() > capacity;
          }
        };
  }

  /** Whether a notification for {@code sourceId} now starts a fetch (true) or coalesces (false). */
  public synchronized boolean admit(String sourceId) {
    Instant now = clock.instant();
    Instant last = lastAdmitted.get(sourceId);
    if (last != null && now.isBefore(last.plus(window))) {
      return false;
    }
    lastAdmitted.put(sourceId, now);
    return true;
  }

  /** Undoes the last admission of {@code sourceId} (its fetch could not be asked for). */
  public synchronized void forget(String sourceId) {
    lastAdmitted.remove(sourceId);
  }
}
