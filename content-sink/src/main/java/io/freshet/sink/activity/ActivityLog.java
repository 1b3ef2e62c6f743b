package io.freshet.sink.activity;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The per-fetch activity log (ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)): one row per fetch request,
 * written from both topics. A request's {@code ContentFetched} records add their counts (written by
 * {@link io.freshet.sink.ingest.ContentUpserter}'s statement, in the same statement as the upsert);
 * its {@code FetchCompleted} fills in the outcome here. Either may come first; the row is
 * <em>complete</em> once the outcome is in and as many records have arrived as the fetch emitted.
 */
@Repository
public class ActivityLog {

  // The cursor a fetch used is the one the source's previous successful fetch handed back (a
  // failed fetch keeps the old cursor, ADR 0008), so it is looked up, not carried by the event.
  // A poll's outcomes travel as arrays (unnest, one per column), as ContentUpserter's rows do
  // (ADR 0005): one statement, one round trip, one plan whatever the poll's size. Times travel as
  // epoch microseconds.
  private static final String OUTCOMES =
      """
      INSERT INTO activity_log AS l
        (request_id, source_id, tenant_id, epoch, status, http_status, error_kind, errors, attempts,
         started_at, finished_at, bytes, items_fetched, items_emitted, items_unchanged,
         cursor_after, cursor_used, completed)
      SELECT i.request_id, i.source_id, i.tenant_id, i.epoch, i.status, i.http_status,
             i.error_kind, i.errors, i.attempts, i.started_at, i.finished_at, i.bytes,
             i.items_fetched, i.items_emitted, i.items_unchanged, i.cursor_after::jsonb,
             (SELECT p.cursor_after FROM activity_log p
               WHERE p.source_id = i.source_id AND p.completed AND p.cursor_after IS NOT NULL
                 AND p.started_at < i.started_at AND p.request_id <> i.request_id
               ORDER BY p.started_at DESC LIMIT 1),
             true
        FROM (SELECT u.*,
                     timestamptz 'epoch' + u.started_us * interval '1 microsecond' AS started_at,
                     timestamptz 'epoch' + u.finished_us * interval '1 microsecond' AS finished_at
                FROM unnest(?::text[], ?::text[], ?::text[], ?::int8[], ?::text[], ?::int4[],
                            ?::text[], ?::text[], ?::int4[], ?::int8[], ?::int8[], ?::int8[],
                            ?::int4[], ?::int4[], ?::int4[], ?::text[])
                  WITH ORDINALITY AS u(request_id, source_id, tenant_id, epoch, status, http_status,
                                       error_kind, errors, attempts, started_us, finished_us,
                                       bytes, items_fetched, items_emitted, items_unchanged,
                                       cursor_after, ord)) i
       ORDER BY i.ord
      ON CONFLICT (request_id) DO UPDATE SET
        source_id = excluded.source_id, epoch = excluded.epoch,
        -- the activity API is scoped by tenant: an outcome without one (an older worker) keeps the
        -- tenant its items named
        tenant_id = CASE WHEN excluded.tenant_id = '' THEN l.tenant_id ELSE excluded.tenant_id END,
        status = excluded.status, http_status = excluded.http_status,
        error_kind = excluded.error_kind, errors = excluded.errors, attempts = excluded.attempts,
        started_at = excluded.started_at, finished_at = excluded.finished_at,
        bytes = excluded.bytes, items_fetched = excluded.items_fetched,
        items_emitted = excluded.items_emitted, items_unchanged = excluded.items_unchanged,
        cursor_after = excluded.cursor_after, cursor_used = excluded.cursor_used, completed = true
      """;

  private final JdbcTemplate jdbc;
  private final JsonMapper json;

  public ActivityLog(JdbcTemplate jdbc, JsonMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /**
   * Records each fetch's outcome, in their order; a redelivered outcome writes the same values
   * again. The whole poll is one statement unless {@link #rounds(List)} needs more.
   */
  public void recordOutcomes(List<FetchOutcome> outcomes) {
    for (List<FetchOutcome> round : rounds(outcomes)) {
      jdbc.update(
          OUTCOMES,
          ps -> {
            int p = 1;
            ps.setObject(p++, column(round, FetchOutcome::requestId, String[]::new));
            ps.setObject(p++, column(round, FetchOutcome::sourceId, String[]::new));
            ps.setObject(p++, column(round, FetchOutcome::tenantId, String[]::new));
            ps.setObject(p++, column(round, FetchOutcome::epoch, Long[]::new));
            ps.setObject(p++, column(round, FetchOutcome::status, String[]::new));
            ps.setObject(p++, column(round, FetchOutcome::httpStatus, Integer[]::new));
            ps.setObject(p++, column(round, FetchOutcome::errorKind, String[]::new));
            ps.setObject(p++, column(round, FetchOutcome::errorMessage, String[]::new));
            ps.setObject(p++, column(round, FetchOutcome::attempts, Integer[]::new));
            ps.setObject(p++, column(round, o -> micros(o.startedAt()), Long[]::new));
            ps.setObject(p++, column(round, o -> micros(o.finishedAt()), Long[]::new));
            ps.setObject(p++, column(round, FetchOutcome::bytes, Long[]::new));
            ps.setObject(p++, column(round, o -> o.listed().size(), Integer[]::new));
            ps.setObject(p++, column(round, FetchOutcome::itemCount, Integer[]::new));
            ps.setObject(p++, column(round, FetchOutcome::unchanged, Integer[]::new));
            ps.setObject(p, column(round, this::cursorJson, String[]::new));
          });
    }
  }

  /**
   * Splits a poll's outcomes into statements that write the same rows as recording them one at a
   * time, in order. One statement cannot stand for two outcomes that depend on each other:
   *
   * <ul>
   *   <li>of the same request (a redelivery): {@code ON CONFLICT DO UPDATE} cannot update a row
   *       twice in one statement;
   *   <li>of the same source: an outcome's {@code cursor_used} is looked up in its source's rows,
   *       and a statement does not see the rows it writes itself, so a source's second fetch in a
   *       poll would miss the cursor its first one handed back.
   * </ul>
   *
   * An outcome's statement reads only its own request's row and its source's rows, so an outcome
   * goes into the round after the last one holding an earlier outcome of its request or of its
   * source (round 0 if none): dependent outcomes run in their order, each seeing what the earlier
   * ones wrote, and outcomes in one round touch no row another one of that round reads — as long as
   * a request stays with one source (a request id reused under another source would move its row
   * between the two sources' histories; the scheduler derives a request id from its source and
   * epoch). Usually a poll is one round.
   *
   * @return the rounds in the order they are to run, each in the outcomes' order
   */
  static List<List<FetchOutcome>> rounds(List<FetchOutcome> outcomes) {
    List<List<FetchOutcome>> rounds = new ArrayList<>();
    Map<String, Integer> lastBySource = new HashMap<>();
    Map<String, Integer> lastByRequest = new HashMap<>();
    for (FetchOutcome o : outcomes) {
      int round =
          1
              + Math.max(
                  lastBySource.getOrDefault(o.sourceId(), -1),
                  lastByRequest.getOrDefault(o.requestId(), -1));
      if (round == rounds.size()) {
        rounds.add(new ArrayList<>());
      }
      rounds.get(round).add(o);
      lastBySource.put(o.sourceId(), round);
      lastByRequest.put(o.requestId(), round);
    }
    return rounds;
  }

  /**
   * One input column as a typed Java array, which the driver sends as a binary array (as {@link
   * io.freshet.sink.ingest.ContentUpserter} does): no array literal to escape or parse.
   */
  private static <T> T[] column(
      List<FetchOutcome> round, Function<FetchOutcome, ? extends T> value, IntFunction<T[]> array) {
    T[] column = array.apply(round.size());
    for (int r = 0; r < column.length; r++) {
      column[r] = value.apply(round.get(r));
    }
    return column;
  }

  private String cursorJson(FetchOutcome o) {
    return o.cursor() == null ? null : json.writeValueAsString(o.cursor());
  }

  /**
   * An instant as microseconds since the epoch, rounded to the nearest as the driver rounds a
   * {@link java.sql.Timestamp} parameter (the per-row statement this replaced bound one); events
   * carry milliseconds, so nothing is rounded in practice.
   */
  static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L),
        (instant.getNano() + 500) / 1_000);
  }

  /**
   * Deletes up to {@code limit} rows logged before {@code before}, oldest first.
   *
   * @return rows deleted
   */
  public int deleteLoggedBefore(Instant before, int limit) {
    return jdbc.update(
        """
        DELETE FROM activity_log WHERE request_id IN (
          SELECT request_id FROM activity_log WHERE logged_at < ? ORDER BY logged_at LIMIT ?
          FOR UPDATE SKIP LOCKED)
        """,
        Timestamp.from(before),
        limit);
  }
}
