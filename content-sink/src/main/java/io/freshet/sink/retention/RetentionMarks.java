package io.freshet.sink.retention;

import io.freshet.sink.audit.AuditAction;
import io.freshet.sink.audit.AuditLog;
import java.sql.Array;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Retention marks ({@code mark_content_retained} of ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)): a marked version never
 * expires while a mark exists; releasing the marks lets it expire again at its {@code expires_at}.
 * The only writer of {@code content_retention}.
 *
 * <p>A mark belongs to its owner: it records the tenant it was set for and the key that set it, it
 * can be set only on that tenant's content, and only a request acting for that tenant releases it,
 * naming it by reason and ref. Another tenant's content id is unknown here, exactly like one that
 * does not exist.
 *
 * <p>Every mark and release is recorded in the audit log ({@link AuditLog}) in the same
 * transaction: the key, the tenant, the reason, the ref, the content ids and how many marks it set
 * or removed.
 */
@Service
public class RetentionMarks {

  /**
   * What a mark request did.
   *
   * @param marked marks added
   * @param alreadyMarked ids that already had this (reason, ref) mark
   */
  public record Marked(int marked, int alreadyMarked) {}

  private final JdbcTemplate jdbc;
  private final TransactionTemplate tx;
  private final AuditLog audit;

  RetentionMarks(JdbcTemplate jdbc, TransactionTemplate tx, AuditLog audit) {
    this.jdbc = jdbc;
    this.tx = tx;
    this.audit = audit;
  }

  /**
   * Marks every version in {@code contentIds} retained for {@code reason} and {@code ref}. All or
   * nothing: if any id is unknown to {@code tenant} (never stored, already deleted by cleanup, or
   * another tenant's), nothing is marked.
   *
   * @param ref what retained it (a deliverable version, a session id): names the mark
   * @param tenant the tenant the request acts for: the ids must be its content
   * @param keyId the key that sets the mark
   * @throws UnknownContentException naming the unknown ids
   */
  public Marked markContentRetained(
      List<Long> contentIds, String reason, String ref, String tenant, String keyId) {
    requireReason(reason);
    requireRef(ref);
    requireTenant(tenant);
    List<Long> ids = distinct(contentIds);
    return tx.execute(
        status -> {
          jdbc.queryForObject(
              "SELECT 1 FROM pg_advisory_xact_lock_shared(?)",
              Integer.class,
              ContentLocks.DELETE_VS_MARK);
          requireKnown(ids, tenant);
          int marked =
              jdbc.execute(
                  (ConnectionCallback<Integer>)
                      conn -> {
                        try (var st =
                            conn.prepareStatement(
                                """
                                INSERT INTO content_retention
                                       (content_id, reason, ref, tenant_id, key_id)
                                SELECT id, ?, ?, ?, ? FROM unnest(?::int8[]) AS u(id)
                                ON CONFLICT (content_id, reason, ref) DO NOTHING
                                """)) {
                          st.setString(1, reason);
                          st.setString(2, ref);
                          st.setString(3, tenant);
                          st.setString(4, keyId);
                          st.setArray(5, conn.createArrayOf("int8", ids.toArray()));
                          return st.executeUpdate();
                        }
                      });
          Marked result = new Marked(marked, ids.size() - marked);
          audit.record(
              keyId,
              tenant,
              AuditAction.RETENTION_MARK,
              ref,
              changes(reason, ref, ids)
                  .put("marked", result.marked())
                  .put("already_marked", result.alreadyMarked()));
          return result;
        });
  }

  /**
   * Removes the mark named {@code reason} and {@code ref} that {@code tenant} set on the versions
   * in {@code contentIds}; never another tenant's marks, never another ref's. All or nothing, like
   * marking.
   *
   * @param keyId the key that releases it
   * @return marks removed
   * @throws UnknownContentException naming the ids unknown to {@code tenant}
   */
  public int release(
      List<Long> contentIds, String reason, String ref, String tenant, String keyId) {
    requireReason(reason);
    requireRef(ref);
    requireTenant(tenant);
    List<Long> ids = distinct(contentIds);
    Integer released =
        tx.execute(
            status -> {
              requireKnown(ids, tenant);
              int removed =
                  jdbc.execute(
                      (ConnectionCallback<Integer>)
                          conn -> {
                            try (var st =
                                conn.prepareStatement(
                                    """
                                DELETE FROM content_retention
                                 WHERE content_id = ANY (?::int8[]) AND reason = ? AND ref = ?
                                   AND tenant_id = ?
                                """)) {
                              st.setArray(1, conn.createArrayOf("int8", ids.toArray()));
                              st.setString(2, reason);
                              st.setString(3, ref);
                              st.setString(4, tenant);
                              return st.executeUpdate();
                            }
                          });
              audit.record(
                  keyId,
                  tenant,
                  AuditAction.RETENTION_RELEASE,
                  ref,
                  changes(reason, ref, ids).put("released", removed));
              return removed;
            });
    return released == null ? 0 : released;
  }

  /** What a mark or release names: the audit record's {@code changes} before its counts. */
  private static ObjectNode changes(String reason, String ref, List<Long> ids) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("reason", reason);
    o.put("ref", ref);
    var array = o.putArray("content_ids");
    ids.forEach(array::add);
    return o;
  }

  // Locks the rows against deletion until the transaction ends (FOR KEY SHARE, like the FK would).
  private void requireKnown(List<Long> ids, String tenant) {
    List<Long> found =
        jdbc.execute(
            (ConnectionCallback<List<Long>>)
                conn -> {
                  try (var st =
                      conn.prepareStatement(
                          "SELECT id FROM platform_content WHERE id = ANY (?::int8[])"
                              + " AND tenant_id = ? FOR KEY SHARE")) {
                    Array array = conn.createArrayOf("int8", ids.toArray());
                    st.setArray(1, array);
                    st.setString(2, tenant);
                    List<Long> out = new ArrayList<>();
                    try (var rs = st.executeQuery()) {
                      while (rs.next()) {
                        out.add(rs.getLong(1));
                      }
                    }
                    return out;
                  }
                });
    Set<Long> known = new HashSet<>(found);
    List<Long> unknown = ids.stream().filter(id -> !known.contains(id)).toList();
    if (!unknown.isEmpty()) {
      throw new UnknownContentException(unknown);
    }
  }

  private static List<Long> distinct(List<Long> ids) {
    if (ids == null || ids.isEmpty()) {
      throw new IllegalArgumentException("content_ids must not be empty");
    }
    Set<Long> out = new LinkedHashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      if (ids.get(i) == null) {
        throw new IllegalArgumentException("content_ids[" + i + "] must not be null");
      }
      out.add(ids.get(i));
    }
    return List.copyOf(out);
  }

  private static void requireRef(String ref) {
    if (ref == null || ref.isBlank()) {
      throw new IllegalArgumentException("ref must not be blank: it names the mark");
    }
  }

  private static void requireTenant(String tenant) {
    if (tenant == null) {
      throw new IllegalArgumentException("a mark belongs to one tenant: name it");
    }
  }

  private static void requireReason(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("reason must not be blank");
    }
  }
}
