package io.freshet.kit.security;

/**
 * Who a request comes from: the principal of every authenticated request. A controller reads it
 * with {@code @AuthenticationPrincipal KeyPrincipal caller}.
 *
 * @param keyId the key's id (a bootstrap key's is {@code bootstrap-admin} or {@code
 *     bootstrap-read})
 * @param tenantId the tenant the key acts for; null for an admin key
 * @param role what it may do
 */
public record KeyPrincipal(String keyId, String tenantId, Role role) {

  /** Whether the key acts for every tenant. */
  public boolean isAdmin() {
    return role == Role.ADMIN;
  }
}
