package io.freshet.kit.security;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every key this service authorises, in memory: the keys' states read from the scheduler's key
 * topic ({@link KeyTopicReader}) and the bootstrap keys of the configuration. A presented key is
 * found by its id and its secret's SHA-256 compared in constant time; a bootstrap key given as a
 * plain token (the deprecated {@code freshet.api.token} and {@code freshet.api.read-token}) by its
 * digest alone.
 *
 * <p>The directory keeps what it last read: a broker outage leaves every service authorising the
 * keys it knew, and a restart replays the topic.
 */
public final class KeyDirectory {

  /** Why a presented key was refused, or who it is. */
  public sealed interface Verdict {
    /** The key is valid. */
    record Accepted(KeyPrincipal principal) implements Verdict {}

    /** The key is refused; {@code reason} is safe to show (it never repeats the key). */
    record Refused(String reason) implements Verdict {}
  }

  /** A bootstrap key: a token from the configuration with the role it is given. */
  record Bootstrap(String id, Role role, byte[] digest) {}

  private final Map<String, KeyState> keys = new ConcurrentHashMap<>();
  private final List<Bootstrap> bootstrap = new ArrayList<>();
  private final Clock clock;

  public KeyDirectory(Clock clock) {
    this.clock = clock;
  }

  /**
   * Adds a key from the configuration, accepted whatever the topic says: {@code text} is either a
   * key in the {@code fk_} form or any other token (the deprecated single tokens).
   *
   * @param id the name it appears under ({@code bootstrap-admin}, {@code bootstrap-read})
   */
  public synchronized KeyDirectory withBootstrap(String id, Role role, String text) {
    if (text != null && !text.isBlank()) {
      bootstrap.add(new Bootstrap(id, role, ApiKeys.sha256(text.strip())));
    }
    return this;
  }

  /** Whether any bootstrap key is configured. */
  public boolean hasBootstrap() {
    return !bootstrap.isEmpty();
  }

  /** Records the latest state of a key (from the topic). */
  public void put(KeyState state) {
    keys.put(state.id(), state);
  }

  /** The key's latest state, if this directory has one. */
  public java.util.Optional<KeyState> get(String id) {
    return java.util.Optional.ofNullable(keys.get(id));
  }

  /** How many keys the topic has told of. */
  public int size() {
    return keys.size();
  }

  /** Who {@code token} (the text after {@code Bearer }) is, or why it is refused. */
  public Verdict authenticate(String token) {
    if (token == null || token.isBlank()) {
      return new Verdict.Refused("missing API key: send Authorization: Bearer <key>");
    }
    String text = token.strip();
    byte[] wholeDigest = ApiKeys.sha256(text);
    // Bootstrap keys first, every one compared (constant time, no early exit on a match).
    Bootstrap matched = null;
    for (Bootstrap b : bootstrap) {
      if (ApiKeys.sameDigest(b.digest(), wholeDigest) && matched == null) {
        matched = b;
      }
    }
    if (matched != null) {
      return new Verdict.Accepted(new KeyPrincipal(matched.id(), null, matched.role()));
    }
    var presented = ApiKeys.parse(text);
    if (presented.isEmpty()) {
      return new Verdict.Refused("invalid API key");
    }
    KeyState state = keys.get(presented.get().id());
    if (state == null || !state.matches(presented.get().digest())) {
      return new Verdict.Refused("invalid API key");
    }
    Instant now = clock.instant();
    if (state.revokedAt() != null) {
      return new Verdict.Refused("API key " + state.id() + " was revoked");
    }
    if (state.expiresAt() != null && !now.isBefore(state.expiresAt())) {
      return new Verdict.Refused("API key " + state.id() + " has expired");
    }
    return new Verdict.Accepted(new KeyPrincipal(state.id(), state.tenantId(), state.role()));
  }
}
