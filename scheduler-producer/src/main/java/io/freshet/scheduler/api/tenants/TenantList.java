package io.freshet.scheduler.api.tenants;

import java.util.List;

/** Every tenant, by id. */
public record TenantList(List<TenantView> items) {}
