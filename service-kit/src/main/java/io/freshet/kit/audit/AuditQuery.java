package io.freshet.kit.audit;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.kit.web.PageParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code GET /audit} asks for, checked the same way by every service that keeps an audit log:
 * the tenant the caller may read ({@link KeyPrincipal#actingFor}), the page size and where the page
 * starts.
 *
 * @param tenant the one tenant whose records to read; empty: every tenant's (an admin key only)
 * @param before only records with a smaller id, or null for the newest
 * @param limit records per page
 */
public record AuditQuery(Optional<String> tenant, Long before, int limit) {

  /** Records per page unless {@code limit} says otherwise. */
  public static final int DEFAULT_LIMIT = 50;

  /** The largest {@code limit}. */
  public static final int MAX_LIMIT = 500;

  /** A tenant id, as the scheduler makes them: also the partition of its data downstream. */
  public static final String TENANT_ID_PATTERN = "^[A-Za-z0-9._-]{1,100}$";

  /** What {@link #TENANT_ID_PATTERN} allows, for an error message. */
  public static final String TENANT_ID_RULE = "must be 1 to 100 characters of A-Z a-z 0-9 . _ -";

  /**
   * The query parameters as received (null when absent), checked: every malformed one is named in
   * one 400; then a tenant key naming another tenant is a 404 ({@link KeyPrincipal#actingFor}).
   *
   * @throws ApiException 400 or 404
   */
  public static AuditQuery of(KeyPrincipal caller, String tenantId, String limit, String before) {
    List<String> errors = new ArrayList<>();
    if (tenantId != null && !tenantId.matches(TENANT_ID_PATTERN)) {
      errors.add("tenant_id: " + TENANT_ID_RULE);
    }
    int size = PageParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT, errors);
    Long beforeId = PageParams.before(before, errors);
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    return new AuditQuery(caller.actingFor(tenantId), beforeId, size);
  }
}
