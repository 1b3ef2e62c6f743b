package io.freshet.kit.security;

/**
 * Told of every request a key from the topic authenticated (never of a bootstrap key). The
 * scheduler collects them and writes {@code last_used_at} in batches; must not block.
 */
@FunctionalInterface
public interface KeyUse {
  void used(String keyId);
}
