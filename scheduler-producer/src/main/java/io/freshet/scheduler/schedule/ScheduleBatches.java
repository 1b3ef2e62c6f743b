package io.freshet.scheduler.schedule;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The schedule writes of the inbound path, a whole poll at a time: {@link ScheduleRepository}'s
 * outcome and stats statements for many sources in a bounded number of statements, whatever the
 * poll's size. The poll's rows are locked with one statement in the database's id order (so two
 * schedulers locking overlapping polls wait for each other instead of deadlocking), and written
 * with one {@code UPDATE … FROM unnest(…)}: the rows travel as typed arrays that the driver sends
 * in PostgreSQL's binary format (ADR 0005 (docs/adr/0005-content-upsert-unnest-arrays.md)), ids as
 * text cast to {@code uuid[]}, instants as microseconds since the epoch. What the new values are is
 * decided in plain Java ({@link OutcomeRules}, {@link NextDue}); this class only reads and stores
 * them. Writes must run inside the caller's transaction.
 */
@Repository
public class ScheduleBatches {

  private static final String LOCKED_ROWS =
      " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
          + " WHERE s.id = ANY(?::uuid[]) ORDER BY s.id FOR UPDATE OF s";

  private static final String LOCK = "SELECT " + ScheduleRow.COLUMNS + LOCKED_ROWS;

  private static final String LOCK_WITH_PUSH =
      "SELECT "
          + ScheduleRow.COLUMNS
          + ", s.push_live_until, s.push_received_at, s.claim_trigger"
          + LOCKED_ROWS;

  // manual_requested is left as it is by outcomes: set during the fetch, it must reach the next
  // claim, which reads it into FetchRequested.manual and clears it in the same statement.
  private static final String APPLY_OUTCOMES =
      """
      UPDATE scheduler.sources s SET
        lease_until = NULL, cursor_json = u.cursor::jsonb, last_status = u.status,
        last_error = u.error, last_outcome_at = %1$s, retry_after = %2$s,
        consecutive_misses = u.misses, next_due_at = %3$s, updated_at = ?,
        hints = CASE WHEN u.facts THEN u.hints::jsonb ELSE s.hints END,
        hint_not_before = CASE WHEN u.facts THEN %4$s ELSE s.hint_not_before END,
        moved_to = CASE WHEN u.facts THEN u.moved_to ELSE s.moved_to END,
        self_url = CASE WHEN u.facts THEN u.self_url ELSE s.self_url END,
        hub_url = CASE WHEN u.facts THEN u.hub_url ELSE s.hub_url END,
        url = coalesce(u.new_url, s.url), host = coalesce(u.new_host, s.host),
        enabled = s.enabled AND u.disabled_reason IS NULL,
        disabled_reason = coalesce(u.disabled_reason, s.disabled_reason),
        push_live_until = CASE WHEN u.clear_push THEN NULL ELSE s.push_live_until END
      FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::int8[], ?::int8[], ?::int4[],
                  ?::int8[], ?::bool[], ?::text[], ?::int8[], ?::text[], ?::text[], ?::text[],
                  ?::text[], ?::text[], ?::text[], ?::bool[])
        AS u(id, cursor, status, error, at, retry_after, misses, next_due, facts, hints,
             hint_not_before, moved_to, self_url, hub_url, new_url, new_host, disabled_reason,
             clear_push)
      WHERE s.id = u.id
      """
          .formatted(
              instant("u.at"),
              instant("u.retry_after"),
              instant("u.next_due"),
              instant("u.hint_not_before"));

  // In the poll's order, so the history's ids follow the order the moves were confirmed in.
  private static final String RECORD_MOVES =
      """
      INSERT INTO scheduler.source_url_history (source_id, url, replaced_by, reason, replaced_at)
      SELECT u.id, u.url, u.replaced_by, 'moved_permanently', ?
      FROM unnest(?::uuid[], ?::text[], ?::text[]) WITH ORDINALITY AS u(id, url, replaced_by, n)
      ORDER BY u.n
      """;

  // One row version per source and poll: the stats and, where the source is rescheduled, the due
  // time computed from the row as it is after them (ScheduleRow.withStats), together. Older stats
  // than the stored ones match no row, as in the one-row statement. updated_at follows the due time
  // as it did when that was a statement of its own.
  private static final String STORE_STATS =
      """
      UPDATE scheduler.sources s SET
        window_fetches = u.window_fetches, avg_signal_yield = u.yield,
        dominant_signal_type = u.dominant, type_counts = u.type_counts::jsonb,
        median_days_to_event = u.median, publish_interval_avg_ms = u.interval_ms,
        recent_published_at = u.recent::timestamptz[], change_rate = u.change_rate,
        consecutive_empty = u.empty, stats_updated_at = %1$s,
        next_due_at = CASE WHEN u.reschedule THEN %2$s ELSE s.next_due_at END,
        updated_at = CASE WHEN u.reschedule THEN ? ELSE s.updated_at END
      FROM unnest(?::uuid[], ?::int4[], ?::float8[], ?::text[], ?::text[], ?::float8[], ?::int8[],
                  ?::text[], ?::float8[], ?::int4[], ?::int8[], ?::bool[], ?::int8[])
        AS u(id, window_fetches, yield, dominant, type_counts, median, interval_ms, recent,
             change_rate, empty, updated_at, reschedule, due)
      WHERE s.id = u.id AND (s.stats_updated_at IS NULL OR s.stats_updated_at <= %1$s)
      """
          .formatted(instant("u.updated_at"), instant("u.due"));

  // Push notifications (PushReceivedListener): the rows a poll's notifications name, locked in the
  // id order of the other listeners' locking reads, with what the rule of REQUEST_PUSHED_FETCH
  // (ScheduleRepository) reads.
  private static final String LOCK_PUSHED =
      "SELECT s.id, s.enabled, s.push_received_at FROM scheduler.sources s"
          + " WHERE s.id = ANY(?::uuid[]) ORDER BY s.id FOR UPDATE";

  // ScheduleRepository.REQUEST_PUSHED_FETCH for many sources, each once, with its newest
  // notification of the run; its conditions stay, so a row the caller's decision got wrong is left
  // alone rather than written.
  private static final String REQUEST_PUSHED_FETCHES =
      """
      UPDATE scheduler.sources s SET
          manual_requested = true, push_requested = true,
          push_received_at = %1$s,
          next_due_at = CASE WHEN s.lease_until IS NULL OR s.lease_until <= ?
                             THEN least(s.next_due_at, ?) ELSE s.next_due_at END,
          updated_at = ?
      FROM unnest(?::uuid[], ?::int8[]) AS u(id, received_at)
      WHERE s.id = u.id AND s.enabled
        AND (s.push_received_at IS NULL OR s.push_received_at < %1$s)
      """
          .formatted(instant("u.received_at"));

  private final JdbcTemplate jdbc;

  public ScheduleBatches(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * The rows of {@code ids} with what they say of push, locked until the surrounding transaction
   * ends; a source that is gone has no entry.
   */
  public Map<UUID, ScheduleRepository.Locked> lockWithPush(Collection<UUID> ids) {
    Map<UUID, ScheduleRepository.Locked> rows = new LinkedHashMap<>();
    if (ids.isEmpty()) {
      return rows;
    }
    jdbc.query(
        LOCK_WITH_PUSH,
        ps -> ps.setObject(1, text(ids)),
        (rs, n) -> {
          ScheduleRow row = ScheduleRow.map(rs, n);
          rows.put(
              row.id(),
              new ScheduleRepository.Locked(
                  row,
                  new PushRules.PushState(
                      ScheduleRow.instant(rs, "push_live_until"),
                      ScheduleRow.instant(rs, "push_received_at"),
                      "push".equals(rs.getString("claim_trigger"))),
                  rs.getString("claim_trigger")));
          return null;
        });
    return rows;
  }

  /** The rows of {@code ids}, locked until the surrounding transaction ends. */
  public Map<UUID, ScheduleRow> lock(Collection<UUID> ids) {
    Map<UUID, ScheduleRow> rows = new LinkedHashMap<>();
    if (ids.isEmpty()) {
      return rows;
    }
    jdbc.query(
        LOCK,
        ps -> ps.setObject(1, text(ids)),
        (rs, n) -> {
          ScheduleRow row = ScheduleRow.map(rs, n);
          rows.put(row.id(), row);
          return null;
        });
    return rows;
  }

  /**
   * An applied outcome of one source.
   *
   * @param clearPush whether push no longer counts for the source ({@link PushRules.Returned})
   */
  public record OutcomeWrite(UUID id, OutcomeRules.Apply apply, boolean clearPush) {}

  /**
   * Stores applied outcomes ({@link OutcomeRules}) and releases their leases, each source at most
   * once: the schedule columns, what the server said of the source, a confirmed move (the old URL
   * kept in {@code source_url_history}), a disabling ({@code gone}) and the end of live push. Two
   * statements at most.
   */
  public void applyOutcomes(List<OutcomeWrite> writes, Instant now) {
    if (writes.isEmpty()) {
      return;
    }
    int n = writes.size();
    String[] ids = new String[n];
    String[] cursor = new String[n];
    String[] status = new String[n];
    String[] error = new String[n];
    Long[] at = new Long[n];
    Long[] retryAfter = new Long[n];
    Integer[] misses = new Integer[n];
    Long[] nextDue = new Long[n];
    Boolean[] facts = new Boolean[n];
    String[] hints = new String[n];
    Long[] hintNotBefore = new Long[n];
    String[] movedTo = new String[n];
    String[] selfUrl = new String[n];
    String[] hubUrl = new String[n];
    String[] newUrl = new String[n];
    String[] newHost = new String[n];
    String[] disabledReason = new String[n];
    Boolean[] clearPush = new Boolean[n];
    int moves = 0;
    for (int i = 0; i < n; i++) {
      OutcomeWrite w = writes.get(i);
      OutcomeRules.Apply a = w.apply();
      OutcomeRules.Facts f = a.facts();
      OutcomeRules.Move m = a.move();
      ids[i] = w.id().toString();
      cursor[i] = a.cursorJson();
      status[i] = a.status();
      error[i] = a.error();
      at[i] = micros(a.outcomeAt());
      retryAfter[i] = micros(a.retryAfter());
      misses[i] = a.misses();
      nextDue[i] = micros(a.nextDue());
      facts[i] = f != null;
      hints[i] = f == null ? null : f.hintsJson();
      hintNotBefore[i] = f == null ? null : micros(f.hintNotBefore());
      movedTo[i] = f == null ? null : f.movedTo();
      selfUrl[i] = f == null ? null : f.selfUrl();
      hubUrl[i] = f == null ? null : f.hubUrl();
      newUrl[i] = m == null ? null : m.to();
      newHost[i] = m == null ? null : m.host();
      disabledReason[i] = a.disabledReason();
      clearPush[i] = w.clearPush();
      moves += m == null ? 0 : 1;
    }
    jdbc.update(
        APPLY_OUTCOMES,
        ps ->
            bind(
                ps,
                Timestamp.from(now),
                ids,
                cursor,
                status,
                error,
                at,
                retryAfter,
                misses,
                nextDue,
                facts,
                hints,
                hintNotBefore,
                movedTo,
                selfUrl,
                hubUrl,
                newUrl,
                newHost,
                disabledReason,
                clearPush));
    if (moves > 0) {
      String[] moved = new String[moves];
      String[] from = new String[moves];
      String[] to = new String[moves];
      int j = 0;
      for (OutcomeWrite w : writes) {
        if (w.apply().move() != null) {
          moved[j] = w.id().toString();
          from[j] = w.apply().move().from();
          to[j++] = w.apply().move().to();
        }
      }
      jdbc.update(RECORD_MOVES, ps -> bind(ps, Timestamp.from(now), moved, from, to));
    }
  }

  /**
   * A source's row after its stats were applied ({@link ScheduleRow#withStats}) and, if {@code
   * reschedule}, its due time recomputed from them ({@link ScheduleRow#withNextDueAt}).
   */
  public record StatsWrite(ScheduleRow row, boolean reschedule) {}

  /**
   * Stores sources' latest {@code SourceStats} on their rows, each source at most once, unless the
   * stored ones are newer (same {@code updated_at} stores again), and the due times of those to
   * reschedule, in one statement: one new version of each row.
   */
  public void storeStats(List<StatsWrite> writes, Instant now) {
    if (writes.isEmpty()) {
      return;
    }
    int n = writes.size();
    String[] ids = new String[n];
    Integer[] windowFetches = new Integer[n];
    Double[] yield = new Double[n];
    String[] dominant = new String[n];
    String[] typeCounts = new String[n];
    Double[] median = new Double[n];
    Long[] interval = new Long[n];
    String[] recent = new String[n];
    Double[] changeRate = new Double[n];
    Integer[] empty = new Integer[n];
    Long[] updatedAt = new Long[n];
    Boolean[] reschedule = new Boolean[n];
    Long[] due = new Long[n];
    for (int i = 0; i < n; i++) {
      ScheduleRow r = writes.get(i).row();
      ids[i] = r.id().toString();
      windowFetches[i] = r.windowFetches();
      yield[i] = r.avgSignalYield();
      dominant[i] = r.dominantSignalType();
      typeCounts[i] = r.typeCountsJson();
      median[i] = r.medianDaysToEvent();
      interval[i] = r.publishIntervalAvgMs();
      recent[i] = arrayLiteral(r.recentPublishedAt());
      changeRate[i] = r.changeRate();
      empty[i] = r.consecutiveEmpty();
      updatedAt[i] = micros(r.statsUpdatedAt());
      reschedule[i] = writes.get(i).reschedule();
      due[i] = reschedule[i] ? micros(r.nextDueAt()) : null;
    }
    jdbc.update(
        STORE_STATS,
        ps ->
            bind(
                ps,
                Timestamp.from(now),
                ids,
                windowFetches,
                yield,
                dominant,
                typeCounts,
                median,
                interval,
                recent,
                changeRate,
                empty,
                updatedAt,
                reschedule,
                due));
  }

  /**
   * What a push notification's fetch-now reads of a source's row.
   *
   * @param pushReceivedAt the latest notification applied to it, or null
   */
  public record PushedRow(boolean enabled, Instant pushReceivedAt) {}

  /**
   * The rows of {@code ids} as push notifications read them, locked until the surrounding
   * transaction ends, in id order; a source that is gone has no entry.
   */
  public Map<UUID, PushedRow> lockPushed(Collection<UUID> ids) {
    Map<UUID, PushedRow> rows = new LinkedHashMap<>();
    if (ids.isEmpty()) {
      return rows;
    }
    jdbc.query(
        LOCK_PUSHED,
        ps -> ps.setObject(1, text(ids)),
        (rs, n) -> {
          rows.put(
              rs.getObject("id", UUID.class),
              new PushedRow(rs.getBoolean("enabled"), ScheduleRow.instant(rs, "push_received_at")));
          return null;
        });
    return rows;
  }

  /**
   * The fetch-now of a notification received at {@code receivedAt} ({@link
   * ScheduleRepository#requestPushedFetch}): a source's newest notification that is newer than its
   * stored one.
   */
  public record PushedFetch(UUID id, Instant receivedAt) {}

  /**
   * Requests the fetches of {@code fetches}, each source at most once, in one statement: flags each
   * source and, unless a claim's lease is active at {@code now}, makes it due now; as {@link
   * ScheduleRepository#requestPushedFetch} does for one, and with the same conditions.
   *
   * @return the rows written
   */
  public int requestPushedFetches(List<PushedFetch> fetches, Instant now) {
    if (fetches.isEmpty()) {
      return 0;
    }
    int n = fetches.size();
    String[] ids = new String[n];
    Long[] receivedAt = new Long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = fetches.get(i).id().toString();
      receivedAt[i] = micros(fetches.get(i).receivedAt());
    }
    Timestamp at = Timestamp.from(now);
    return jdbc.update(REQUEST_PUSHED_FETCHES, ps -> bind(ps, at, at, at, ids, receivedAt));
  }

  /** An instant parameter travelling as microseconds since the epoch, as a {@code timestamptz}. */
  private static String instant(String column) {
    return "(timestamptz 'epoch' + " + column + " * interval '1 microsecond')";
  }

  static Long micros(Instant instant) {
    if (instant == null) {
      return null;
    }
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  /** A {@code timestamptz[]} literal of instants (ISO-8601, which PostgreSQL reads exactly). */
  private static String arrayLiteral(List<Instant> instants) {
    StringBuilder out = new StringBuilder("{");
    for (Instant i : instants) {
      if (out.length() > 1) {
        out.append(',');
      }
      out.append('"').append(i).append('"');
    }
    return out.append('}').toString();
  }

  private static String[] text(Collection<UUID> ids) {
    return ids.stream().map(UUID::toString).toArray(String[]::new);
  }

  private static void bind(PreparedStatement ps, Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      ps.setObject(i + 1, values[i]);
    }
  }
}
