package io.freshet.sink.retention;

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

/**
 * Retention marks ({@code mark_content_retained} of ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)): a marked version never
 * expires while a mark exists; releasing the marks lets it expire again at its {@code expires_at}.
 * The only writer of {@code content_retention}.
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

  RetentionMarks(JdbcTemplate jdbc, TransactionTemplate tx) {
    this.jdbc = jdbc;
    this.tx = tx;
  }

  /**
   * Marks every version in {@code contentIds} retained for {@code reason} and {@code ref}. All or
   * nothing: if any id is unknown (never stored, or already deleted by cleanup), nothing is marked.
   *
   * @param ref what retained it (a deliverable version, a session id); empty when there is none
   * @throws UnknownContentException naming the unknown ids
   */
  public Marked markContentRetained(List<Long> contentIds, String reason, String ref) {
    requireReason(reason);
    List<Long> ids = distinct(contentIds);
    return tx.execute(
        status -> {
          jdbc.queryForObject(
              "SELECT 1 FROM pg_advisory_xact_lock_shared(?)",
              Integer.class,
              ContentLocks.DELETE_VS_MARK);
          requireKnown(ids);
          int marked =
              jdbc.execute(
                  (ConnectionCallback<Integer>)
                      conn -> {
                        try (var st =
                            conn.prepareStatement(
                                """
                                INSERT INTO content_retention (content_id, reason, ref)
                                SELECT id, ?, ? FROM unnest(?::int8[]) AS u(id)
                                ON CONFLICT (content_id, reason, ref) DO NOTHING
                                """)) {
                          st.setString(1, reason);
                          st.setString(2, ref == null ? "" : ref);
                          st.setArray(3, conn.createArrayOf("int8", ids.toArray()));
                          return st.executeUpdate();
                        }
                      });
          return new Marked(marked, ids.size() - marked);
        });
  }

  /**
   * Removes the marks of {@code reason} (and {@code ref}, when given; every ref of the reason when
   * null) from the versions in {@code contentIds}. All or nothing, like marking.
   *
   * @return marks removed
   * @throws UnknownContentException naming the unknown ids
   */
  public int release(List<Long> contentIds, String reason, String ref) {
    requireReason(reason);
    List<Long> ids = distinct(contentIds);
    Integer released =
        tx.execute(
            status -> {
              requireKnown(ids);
              return jdbc.execute(
                  (ConnectionCallback<Integer>)
                      conn -> {
                        try (var st =
                            conn.prepareStatement(
                                """
                                DELETE FROM content_retention
                                 WHERE content_id = ANY (?::int8[]) AND reason = ?
                                   AND (?::text IS NULL OR ref = ?::text)
                                """)) {
                          st.setArray(1, conn.createArrayOf("int8", ids.toArray()));
                          st.setString(2, reason);
                          st.setString(3, ref);
                          st.setString(4, ref);
                          return st.executeUpdate();
                        }
                      });
            });
    return released == null ? 0 : released;
  }

  // Locks the rows against deletion until the transaction ends (FOR KEY SHARE, like the FK would).
  private void requireKnown(List<Long> ids) {
    List<Long> found =
        jdbc.execute(
            (ConnectionCallback<List<Long>>)
                conn -> {
                  try (var st =
                      conn.prepareStatement(
                          "SELECT id FROM platform_content WHERE id = ANY (?::int8[])"
                              + " FOR KEY SHARE")) {
                    Array array = conn.createArrayOf("int8", ids.toArray());
                    st.setArray(1, array);
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

  private static void requireReason(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("reason must not be blank");
    }
  }
}
