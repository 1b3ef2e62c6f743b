package io.freshet.scheduler.api.keys;

import io.freshet.kit.security.KeyState;
import io.freshet.kit.security.Role;
import java.time.Instant;

/** One row of {@code api_keys}. */
record KeyRow(
    String id,
    String tenantId,
    Role role,
    byte[] secretSha256,
    Instant createdAt,
    Instant lastUsedAt,
    Instant expiresAt,
    Instant revokedAt,
    long version) {

  /** What every service is told of the key. */
  KeyState state() {
    return new KeyState(id, tenantId, role, secretSha256, createdAt, expiresAt, revokedAt);
  }

  @Override
  public String toString() {
    return "KeyRow[" + state() + ", version=" + version + "]";
  }
}
