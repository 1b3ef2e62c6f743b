package io.freshet.push.websub;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Absorbs repeated notifications: one for a source whose body is the same as the last one let
 * through for that source, within {@code window} of it, asks for no fetch (a replayed notification,
 * a hub delivering twice or repeating an unchanged document). A notification with another body
 * always asks for one, however soon: it may announce an item the previous fetch could not have
 * seen, and dropping it would leave that item waiting for the next poll. Bursts still cost at most
 * two fetches, because the scheduler coalesces durably: fetch-nows of a source not yet claimed are
 * one fetch, and any during its fetch make exactly one more after it. An empty body (a thin ping)
 * says nothing to compare, so it is never absorbed; each hub host's rate limit bounds those.
 * Remembers at most {@code capacity} sources (the least recently admitted are forgotten first,
 * which can only let an extra fetch through).
 */
public final class Coalescer {

  private record Admitted(Instant at, byte[] digest) {}

  private final Clock clock;
  private final Duration window;
  private final Map<String, Admitted> lastAdmitted;

  public Coalescer(Clock clock, Duration window, int capacity) {
    this.clock = clock;
    this.window = window;
    this.lastAdmitted =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Admitted> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * Whether a notification for {@code sourceId} with {@code body} now asks for a fetch (true) or
   * repeats the last one let through (false).
   */
  public boolean admit(String sourceId, byte[] body) {
    if (body.length == 0) {
      return true;
    }
    byte[] digest = sha256(body);
    synchronized (this) {
      Instant now = clock.instant();
      Admitted last = lastAdmitted.get(sourceId);
      if (last != null
          && now.isBefore(last.at().plus(window))
          && MessageDigest.isEqual(last.digest(), digest)) {
        return false;
      }
      lastAdmitted.put(sourceId, new Admitted(now, digest));
      return true;
    }
  }

  /** Undoes the last admission of {@code sourceId} (its fetch could not be asked for). */
  public synchronized void forget(String sourceId) {
    lastAdmitted.remove(sourceId);
  }

  private static byte[] sha256(byte[] body) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(body);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is in every JDK", e);
    }
  }
}
