package io.freshet.sink.activity;

import static io.freshet.sink.testing.ContentEvents.item;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.sink.ingest.ContentUpserter;
import io.freshet.sink.ingest.ContentVersion;
import io.freshet.sink.ingest.UpsertPlan;
import io.freshet.sink.testing.SinkItSupport;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link ActivityLog#recordOutcomes} writes a poll's outcomes as one statement (or a few, {@link
 * ActivityLog#rounds}): on the real database, each scenario runs twice, on sources of its own, once
 * through it and once through the statement per outcome it replaced (a JDBC batch, each statement
 * seeing the rows the earlier ones wrote), and both must leave the same rows, column by column; the
 * values the pitfalls are about are also asserted outright.
 */
class ActivityLogStatementIT extends SinkItSupport {

  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

  @Autowired ActivityLog activity;
  @Autowired ContentUpserter upserter;
  @Autowired JdbcTemplate jdbcTemplate;
  @Autowired JsonMapper json;

  /** Where one run of a scenario writes: ids under its own prefix, outcomes by one recorder. */
  private record Run(String prefix, Consumer<List<FetchOutcome>> recorder) {
    String id(String name) {
      return prefix + name;
    }
  }

  /** Runs the scenario through both recorders and returns the unbatched run's prefix. */
  private String sameRowsBothWays(Consumer<Run> scenario) {
    String tag = UUID.randomUUID().toString().substring(0, 8);
    var mine = new Run("one-" + tag + "-", activity::recordOutcomes);
    var reference = new Run("per-" + tag + "-", this::recordOneStatementPerOutcome);
    scenario.accept(mine);
    scenario.accept(reference);
    List<String> rows = logRows(mine.prefix());
    assertThat(rows).isNotEmpty().isEqualTo(logRows(reference.prefix()));
    return mine.prefix();
  }

  /** Every column of the prefix's rows but logged_at (the clock), ids without the prefix. */
  private List<String> logRows(String prefix) {
    return jdbc.sql(
            """
            SELECT concat_ws(' | ', substr(request_id, length(:p) + 1),
                             substr(source_id, length(:p) + 1), tenant_id, epoch, status,
                             coalesce(http_status::text, '-'), error_kind, errors, attempts,
                             started_at, finished_at, bytes, items_fetched, items_emitted,
                             items_unchanged, items_new, items_changed, items_duplicate,
                             items_arrived, coalesce(cursor_after::text, '-'),
                             coalesce(cursor_used::text, '-'), completed)
              FROM activity_log WHERE request_id LIKE :p || '%' ORDER BY request_id
            """)
        .param("p", prefix)
        .query(String.class)
        .list();
  }

  private static FetchOutcome outcome(
      Run run,
      String request,
      String source,
      String tenant,
      String status,
      Integer httpStatus,
      Instant startedAt,
      Map<String, String> cursor) {
    return new FetchOutcome(
        run.id(request),
        run.id(source),
        tenant,
        7,
        status,
        httpStatus,
        httpStatus == null ? "timeout" : null,
        httpStatus == null ? "read timed out" : null,
        httpStatus == null ? 3 : 1,
        startedAt,
        startedAt.plusMillis(1500),
        httpStatus == null ? 0 : 2048,
        1,
        List.of(new FetchOutcome.Listed("i", "h")),
        0,
        cursor);
  }

  private static FetchOutcome ok(Run run, String request, String source, Instant at, String etag) {
    return outcome(
        run,
        request,
        source,
        "tenant-a",
        "ok",
        200,
        at,
        etag == null ? null : Map.of("etag", etag));
  }

  private String cell(String prefix, String request, String column) {
    return jdbc.sql(
            "SELECT coalesce(" + column + "::text, '-') FROM activity_log WHERE request_id = :r")
        .param("r", prefix + request)
        .query(String.class)
        .single();
  }

  @Test
  void aSourcesSecondFetchInOnePollUsesTheCursorItsFirstHandedBack() {
    String p =
        sameRowsBothWays(
            run -> {
              run.recorder().accept(List.of(ok(run, "r0", "s", T0, "c0")));
              Instant t = T0.plusSeconds(60);
              run.recorder()
                  .accept(
                      List.of(
                          ok(run, "r1", "s", t, "c1"),
                          ok(run, "u1", "u", t, "cu1"),
                          // failed: no http status, no cursor; keeps the one before
                          outcome(
                              run, "r2", "s", "tenant-a", "failed", null, t.plusSeconds(1), null),
                          ok(run, "r3", "s", t.plusSeconds(2), "c3"),
                          // began before r1, arrives after it: r1's cursor is not its previous
                          ok(run, "r4", "s", t.minusSeconds(30), "c4"),
                          ok(run, "u2", "u", t.plusSeconds(1), "cu2"),
                          // began after r6 of the same poll: r6 does not use its cursor
                          ok(run, "r5", "s", t.plusSeconds(10), "c5"),
                          ok(run, "r6", "s", t.plusSeconds(5), "c6")));
            });
    assertThat(cell(p, "r1", "cursor_used->>'etag'")).isEqualTo("c0");
    assertThat(cell(p, "u1", "cursor_used")).isEqualTo("-");
    assertThat(cell(p, "r2", "cursor_used->>'etag'")).isEqualTo("c1");
    assertThat(cell(p, "r2", "http_status")).isEqualTo("-");
    assertThat(cell(p, "r2", "cursor_after")).isEqualTo("-");
    assertThat(cell(p, "r3", "cursor_used->>'etag'")).isEqualTo("c1");
    assertThat(cell(p, "r4", "cursor_used->>'etag'")).isEqualTo("c0");
    assertThat(cell(p, "u2", "cursor_used->>'etag'")).isEqualTo("cu1");
    assertThat(cell(p, "r5", "cursor_used->>'etag'")).isEqualTo("c3");
    assertThat(cell(p, "r6", "cursor_used->>'etag'")).isEqualTo("c3");
  }

  @Test
  void aRequestRepeatedInOnePollEndsWithItsLastOutcome() {
    String p =
        sameRowsBothWays(
            run -> {
              run.recorder().accept(List.of(ok(run, "r0", "s", T0, "c0")));
              Instant t = T0.plusSeconds(60);
              run.recorder()
                  .accept(
                      List.of(
                          ok(run, "r1", "s", t, "c1"),
                          ok(run, "v1", "v", t, "cv1"),
                          // the same request again (a redelivery, here with other values and no
                          // tenant: it keeps the one its first outcome named)
                          outcome(
                              run,
                              "r1",
                              "s",
                              "",
                              "partial",
                              206,
                              t.plusMillis(5),
                              Map.of("e", "x")),
                          ok(run, "r2", "s", t.plusSeconds(1), "c2"),
                          ok(run, "r1", "s", t.plusMillis(9), "c1b")));
            });
    assertThat(cell(p, "r1", "status")).isEqualTo("ok");
    assertThat(cell(p, "r1", "tenant_id")).isEqualTo("tenant-a");
    assertThat(cell(p, "r1", "cursor_after->>'etag'")).isEqualTo("c1b");
    assertThat(cell(p, "r1", "cursor_used->>'etag'")).isEqualTo("c0");
    // r2 was written when r1's row held the partial outcome's cursor
    assertThat(cell(p, "r2", "cursor_used->>'e'")).isEqualTo("x");
  }

  private void items(Run run, String request, String source, String... itemIds) {
    List<ContentVersion> versions =
        java.util.Arrays.stream(itemIds)
            .map(
                i -> {
                  ContentFetched e = item(run.id(source), i, 1, T0);
                  e.setRequestId(run.id(request));
                  return ContentVersion.of(e, Duration.ofDays(30));
                })
            .toList();
    upserter.upsert(UpsertPlan.of(versions));
  }

  @Test
  void itemsBeforeOrAfterTheOutcomeKeepTheirCountsAndTheTenantTheyNamed() {
    String p =
        sameRowsBothWays(
            run -> {
              // q1: its items first, then an outcome without a tenant (an older worker)
              items(run, "q1", "s", "a", "b");
              // q2: an outcome without a tenant first, then its items; q3 the same with a tenant
              run.recorder()
                  .accept(
                      List.of(
                          outcome(
                              run, "q1", "s", "", "not_modified", 304, T0.plusNanos(1_500), null),
                          outcome(
                              run,
                              "q2",
                              "t",
                              "",
                              "ok",
                              200,
                              T0.plusNanos(2_499),
                              Map.of("etag", "q2")),
                          outcome(run, "q3", "w", "tenant-b", "ok", 200, T0, null)));
              items(run, "q2", "t", "c");
              items(run, "q3", "w", "d");
              // a redelivered outcome changes nothing
              run.recorder()
                  .accept(
                      List.of(
                          outcome(
                              run, "q1", "s", "", "not_modified", 304, T0.plusNanos(1_500), null)));
            });
    assertThat(cell(p, "q1", "tenant_id")).isEqualTo("tenant-a");
    assertThat(cell(p, "q1", "items_new")).isEqualTo("2");
    assertThat(cell(p, "q1", "completed")).isEqualTo("true");
    assertThat(cell(p, "q2", "tenant_id")).isEqualTo("tenant-a");
    assertThat(cell(p, "q2", "items_arrived")).isEqualTo("1");
    assertThat(cell(p, "q3", "tenant_id")).isEqualTo("tenant-b");
    assertThat(cell(p, "q3", "items_new")).isEqualTo("1");
  }

  // The statement per outcome that recordOutcomes replaced, bound as it was, as the reference.
  private static final String ONE_OUTCOME =
      """
      INSERT INTO activity_log AS l
        (request_id, source_id, tenant_id, epoch, status, http_status, error_kind, errors, attempts,
         started_at, finished_at, bytes, items_fetched, items_emitted, items_unchanged,
         cursor_after, cursor_used, completed)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb,
              (SELECT p.cursor_after FROM activity_log p
                WHERE p.source_id = ? AND p.completed AND p.cursor_after IS NOT NULL
                  AND p.started_at < ? AND p.request_id <> ?
                ORDER BY p.started_at DESC LIMIT 1),
              true)
      ON CONFLICT (request_id) DO UPDATE SET
        source_id = excluded.source_id, epoch = excluded.epoch,
        tenant_id = CASE WHEN excluded.tenant_id = '' THEN l.tenant_id ELSE excluded.tenant_id END,
        status = excluded.status, http_status = excluded.http_status,
        error_kind = excluded.error_kind, errors = excluded.errors, attempts = excluded.attempts,
        started_at = excluded.started_at, finished_at = excluded.finished_at,
        bytes = excluded.bytes, items_fetched = excluded.items_fetched,
        items_emitted = excluded.items_emitted, items_unchanged = excluded.items_unchanged,
        cursor_after = excluded.cursor_after, cursor_used = excluded.cursor_used, completed = true
      """;

  private void recordOneStatementPerOutcome(List<FetchOutcome> outcomes) {
    jdbcTemplate.batchUpdate(
        ONE_OUTCOME,
        outcomes,
        outcomes.size(),
        (st, o) -> {
          int p = 1;
          st.setString(p++, o.requestId());
          st.setString(p++, o.sourceId());
          st.setString(p++, o.tenantId());
          st.setLong(p++, o.epoch());
          st.setString(p++, o.status());
          if (o.httpStatus() == null) {
            st.setNull(p++, Types.INTEGER);
          } else {
            st.setInt(p++, o.httpStatus());
          }
          st.setString(p++, o.errorKind());
          st.setString(p++, o.errorMessage());
          st.setInt(p++, o.attempts());
          st.setTimestamp(p++, Timestamp.from(o.startedAt()));
          st.setTimestamp(p++, Timestamp.from(o.finishedAt()));
          st.setLong(p++, o.bytes());
          st.setInt(p++, o.listed().size());
          st.setInt(p++, o.itemCount());
          st.setInt(p++, o.unchanged());
          st.setString(p++, o.cursor() == null ? null : json.writeValueAsString(o.cursor()));
          st.setString(p++, o.sourceId());
          st.setTimestamp(p++, Timestamp.from(o.startedAt()));
          st.setString(p, o.requestId());
        });
  }
}
