package io.freshet.sink.audit;

/** What an audit record says was done; {@link #wireName} is its {@code action}. */
public enum AuditAction {
  RETENTION_MARK("retention.mark"),
  RETENTION_RELEASE("retention.release"),
  CLEANUP("cleanup");

  private final String wireName;

  AuditAction(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
