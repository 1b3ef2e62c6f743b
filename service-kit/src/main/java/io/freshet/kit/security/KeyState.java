package io.freshet.kit.security;

import java.time.Instant;
import java.util.Objects;

/**
 * What every service knows of one key: never its secret, only the secret's SHA-256.
 *
 * @param id the key's id
 * @param tenantId the tenant it acts for; null for an admin key
 * @param role what it may do
 * @param secretSha256 SHA-256 of its secret
 * @param createdAt when it was created
 * @param expiresAt when it stops working; null: never
 * @param revokedAt when it was revoked; null: it is not
 */
public record KeyState(
    String id,
    String tenantId,
    Role role,
    byte[] secretSha256,
    Instant createdAt,
    Instant expiresAt,
    Instant revokedAt) {

  public KeyState {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(secretSha256, "secretSha256");
    secretSha256 = secretSha256.clone();
  }

  @Override
  public byte[] secretSha256() {
    return secretSha256.clone();
  }

  boolean matches(byte[] digest) {
    return ApiKeys.sameDigest(secretSha256, digest);
  }

  @Override
  public String toString() {
    return "KeyState[id="
        + id
        + ", tenant="
        + tenantId
        + ", role="
        + role.wireName()
        + ", expiresAt="
        + expiresAt
        + ", revokedAt="
        + revokedAt
        + "]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyState k
        && id.equals(k.id)
        && Objects.equals(tenantId, k.tenantId)
        && role == k.role
        && java.util.Arrays.equals(secretSha256, k.secretSha256)
        && Objects.equals(createdAt, k.createdAt)
        && Objects.equals(expiresAt, k.expiresAt)
        && Objects.equals(revokedAt, k.revokedAt);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }
}
