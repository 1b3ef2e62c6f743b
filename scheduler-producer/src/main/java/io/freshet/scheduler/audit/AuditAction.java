package io.freshet.scheduler.audit;

/** What an audit record says was done; {@link #wireName} is its {@code action}. */
public enum AuditAction {
  SOURCE_CREATE("source.create"),
  SOURCE_UPDATE("source.update"),
  SOURCE_DELETE("source.delete"),
  SOURCE_ENABLE("source.enable"),
  SOURCE_DISABLE("source.disable"),
  SOURCE_FETCH_NOW("source.fetch_now"),
  IMPORT("import"),
  RUN("run"),
  TENANT_CREATE("tenant.create"),
  TENANT_UPDATE("tenant.update"),
  TENANT_DELETE("tenant.delete"),
  KEY_CREATE("key.create"),
  KEY_REVOKE("key.revoke");

  private final String wireName;

  AuditAction(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
