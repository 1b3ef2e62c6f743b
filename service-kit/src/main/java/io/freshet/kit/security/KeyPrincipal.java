package io.freshet.kit.security;

import io.freshet.kit.web.ApiException;
import java.util.Optional;

/**
 * Who a request comes from: the principal of every authenticated request. A controller reads it
 * with {@code @AuthenticationPrincipal KeyPrincipal caller}.
 *
 * <p>The tenant a request acts for comes from here, never from the request: {@link #sees} decides
 * whether a stored row is visible (another tenant's is answered 404, as if it did not exist), and
 * {@link #actingFor} which tenant a request that names one (a path, a query parameter or a body
 * field) acts for.
 *
 * @param keyId the key's id (a bootstrap key's is {@code bootstrap-admin}, {@code
 *     bootstrap-legacy-admin} or {@code bootstrap-legacy-read})
 * @param tenantId the tenant the key acts for; null for a key that acts for every tenant (an admin
 *     key, and the deprecated read token)
 * @param role what it may do
 */
public record KeyPrincipal(String keyId, String tenantId, Role role) {

  /** Whether the key acts for every tenant. */
  public boolean isAdmin() {
    return role == Role.ADMIN;
  }

  /** Whether the key acts for every tenant: an admin key or the deprecated read token. */
  public boolean allTenants() {
    return tenantId == null;
  }

  /**
   * Whether a row of {@code tenant} is visible to this key. Callers answer 404 (not 403) when it is
   * not: another tenant's source, content or stats must not be revealed to exist.
   */
  public boolean sees(String tenant) {
    return allTenants() || tenantId.equals(tenant);
  }

  /**
   * The tenant a request acts for, given the one it names (null if none). A tenant key acts for its
   * own tenant: naming it is allowed, naming another is answered 404 ({@code tenant <id> not
   * found}, as if it did not exist). A key for every tenant acts for the one named, or for every
   * tenant ({@link Optional#empty()}) when none is named: a list then covers every tenant, a create
   * must refuse it ({@link #requireActingFor}).
   */
  public Optional<String> actingFor(String named) {
    boolean blank = named == null || named.isBlank();
    if (allTenants()) {
      return blank ? Optional.empty() : Optional.of(named);
    }
    if (!blank && !tenantId.equals(named)) {
      throw ApiException.notFound("tenant " + named + " not found");
    }
    return Optional.of(tenantId);
  }

  /**
   * The one tenant a request acts for ({@link #actingFor}); a key for every tenant must name it, in
   * {@code field}: 400 otherwise.
   */
  public String requireActingFor(String named, String field) {
    return actingFor(named)
        .orElseThrow(
            () ->
                ApiException.badRequest(
                    field + ": an admin key acts for every tenant, so say which tenant"));
  }
}
