package io.freshet.sink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.sink.testing.ContentEvents;
import io.freshet.sink.testing.SinkItSupport;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 304 keep-alive on the real database, against {@link KeepAlive}'s rule: a listed version
 * within the granularity is not rewritten (its row version stays), one beyond is, and its expiry is
 * never earlier than the TTL rule and at most the granularity later; what the last full read did
 * not list is never touched.
 */
class KeepAliveIT extends SinkItSupport {

  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final long NINETY_DAYS = 90 * DAY;

  @Autowired ContentUpserter upserter;
  @Autowired JdbcTemplate jdbcTemplate;
  @Autowired JsonMapper json;
  @Autowired TransactionTemplate tx;

  private String source;
  private Instant t;

  private record Row(Instant lastSeenAt, Instant expiresAt, long retentionMs, String ctid) {}

  @BeforeEach
  void fullRead() {
    source = "keep-" + UUID.randomUUID().toString().substring(0, 8);
    t = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofDays(10));
    // the source's last full read began at t and listed a (kept a day) and b (kept 90 days) at
    // t + 2 s; old was listed an hour before and not since
    jdbc.sql(
            """
            INSERT INTO activity_log (request_id, source_id, tenant_id, status, started_at,
                                      finished_at, completed)
            VALUES (:r, :s, 'tenant-a', 'ok', :t, :t2, true)
            """)
        .param("r", source + ":read")
        .param("s", source)
        .param("t", Timestamp.from(t))
        .param("t2", Timestamp.from(t.plusSeconds(2)))
        .update();
    store("a", t.plusSeconds(2), DAY);
    store("b", t.plusSeconds(2), NINETY_DAYS);
    store("old", t.minus(Duration.ofHours(1)), DAY);
  }

  private void store(String item, Instant listedAt, long retentionMs) {
    jdbc.sql(
            """
            INSERT INTO platform_content (tenant_id, source_id, connector, item_id, content_hash,
              request_id, fetched_at, first_seen_at, last_seen_at, signal_type, expires_at,
              retention_ms)
            VALUES ('tenant-a', :s, 'feed', :i, :h, :r, :at, :at, :at, 'informative', :exp, :ret)
            """)
        .param("s", source)
        .param("i", item)
        .param("h", "hash-" + item)
        .param("r", source + ":read")
        .param("at", Timestamp.from(listedAt))
        .param("exp", Timestamp.from(listedAt.plusMillis(retentionMs)))
        .param("ret", retentionMs)
        .update();
  }

  private Row row(String item) {
    Map<String, Object> r =
        jdbc.sql(
                """
                SELECT last_seen_at, expires_at, retention_ms, ctid::text AS ctid
                  FROM platform_content WHERE source_id = :s AND item_id = :i
                """)
            .param("s", source)
            .param("i", item)
            .query()
            .singleRow();
    return new Row(
        ((Timestamp) r.get("last_seen_at")).toInstant(),
        ((Timestamp) r.get("expires_at")).toInstant(),
        ((Number) r.get("retention_ms")).longValue(),
        (String) r.get("ctid"));
  }

  /** A 304 that ended at {@code at}; asserts the database did what {@code rule} says, per row. */
  private int notModified(ContentUpserter sink, Instant at) {
    KeepAlive rule = sink.keepAlive();
    Map<String, Row> before = Map.of("a", row("a"), "b", row("b"), "old", row("old"));
    int touched =
        sink.extendUnchangedSinceLastRead(
            List.of(new ContentUpserter.Unchanged(source, at.minusSeconds(2), at)));
    int expected = 0;
    for (String item : List.of("a", "b")) {
      Row was = before.get(item);
      Row now = row(item);
      long g = rule.granularityMs(was.retentionMs());
      if (rule.rewrites(was.lastSeenAt(), was.expiresAt(), was.retentionMs(), at)) {
        expected++;
        assertThat(now.lastSeenAt()).as(item).isEqualTo(at);
        assertThat(now.expiresAt())
            .as(item)
            .isEqualTo(rule.expiresAt(was.expiresAt(), was.retentionMs(), at));
        assertThat(now.ctid()).as(item + " rewritten").isNotEqualTo(was.ctid());
      } else {
        assertThat(now).as(item + " not rewritten").isEqualTo(was);
      }
      // never earlier than the rule, at most g later; last_seen_at at most g behind
      assertThat(now.expiresAt())
          .as(item)
          .isAfterOrEqualTo(at.plusMillis(was.retentionMs()))
          .isBeforeOrEqualTo(at.plusMillis(was.retentionMs() + g));
      assertThat(now.lastSeenAt()).as(item).isAfterOrEqualTo(at.minusMillis(g));
    }
    assertThat(row("old")).as("not listed by the last full read").isEqualTo(before.get("old"));
    assertThat(touched).isEqualTo(expected);
    return touched;
  }

  @Test
  void a304RewritesAListedVersionOnlyWhenItIsMoreThanTheGranularityStale() {
    long ga = upserter.keepAlive().granularityMs(DAY); // 14.4 min
    long gb = upserter.keepAlive().granularityMs(NINETY_DAYS); // the 1 h cap
    assertThat(ga).isEqualTo(DAY / 100);
    assertThat(gb).isEqualTo(Duration.ofHours(1).toMillis());

    Instant at1 = t.plusSeconds(60);
    assertThat(notModified(upserter, at1)).as("the first 304 after the full read").isEqualTo(2);
    assertThat(row("a").expiresAt()).isEqualTo(at1.plusMillis(DAY + ga));
    assertThat(row("b").expiresAt()).isEqualTo(at1.plusMillis(NINETY_DAYS + gb));

    assertThat(notModified(upserter, at1.plusSeconds(1))).isZero();
    assertThat(notModified(upserter, at1.plusMillis(ga))).as("within a's granularity").isZero();
    assertThat(notModified(upserter, at1.plusMillis(ga + 1000))).as("a only").isEqualTo(1);
    assertThat(notModified(upserter, at1.plusMillis(gb + 1000))).as("both").isEqualTo(2);
  }

  @Test
  void withAGranularityOfZeroEvery304AppliesTheRuleExactly() {
    var exact = new ContentUpserter(jdbcTemplate, json, KeepAlive.EXACT);
    Instant at1 = t.plusSeconds(60);
    assertThat(notModified(exact, at1)).isEqualTo(2);
    assertThat(notModified(exact, at1.plusSeconds(1))).isEqualTo(2);
    assertThat(row("a").expiresAt()).isEqualTo(at1.plusSeconds(1).plusMillis(DAY));
    assertThat(row("a").lastSeenAt()).isEqualTo(at1.plusSeconds(1));
    assertThat(notModified(exact, at1.plusSeconds(1))).as("moves nothing").isZero();
  }

  /** What a full read that ended at {@code at} and listed a and b did: rows written, HOT ones. */
  private record Listed(int written, long hot) {}

  private Listed fullReadListing(ContentUpserter sink, Instant at) {
    List<ContentUpserter.Listing> listing =
        List.of(
            new ContentUpserter.Listing(source, "a", "hash-a", at),
            new ContentUpserter.Listing(source, "b", "hash-b", at));
    int[] written = new int[1];
    long hot = hotUpdatesOf(() -> written[0] = sink.extendListed(listing));
    return new Listed(written[0], hot);
  }

  /**
   * The HOT updates of {@code platform_content} that {@code work} made, run in one transaction so
   * that its own count can be read before and after (the backend's counts not yet flushed to the
   * statistics: no waiting for them).
   */
  private long hotUpdatesOf(Runnable work) {
    return tx.execute(
        status -> {
          long before = hotUpdates();
          work.run();
          return hotUpdates() - before;
        });
  }

  private long hotUpdates() {
    return jdbcTemplate.queryForObject(
        "SELECT pg_stat_get_xact_tuples_hot_updated('platform_content'::regclass)", Long.class);
  }

  @Test
  void aFullReadSetsLastSeenExactlyAndMovesTheExpiryOnlyPastTheRuleSoMostListingsAreHot() {
    long ga = upserter.keepAlive().granularityMs(DAY);
    long gb = upserter.keepAlive().granularityMs(NINETY_DAYS);
    Instant at1 = t.plusSeconds(60);
    Row old = row("old");

    // a minute after they were stored, both expiries are below the rule: moved, padded by g
    assertThat(fullReadListing(upserter, at1).written()).isEqualTo(2);
    assertThat(row("a").lastSeenAt()).isEqualTo(at1);
    assertThat(row("a").expiresAt()).isEqualTo(at1.plusMillis(DAY + ga));
    assertThat(row("b").expiresAt()).isEqualTo(at1.plusMillis(NINETY_DAYS + gb));

    // the next full reads within g: last_seen_at exact, the indexed expiry kept, so HOT updates
    Row a = row("a");
    Row b = row("b");
    for (Instant at : List.of(at1.plusSeconds(1), at1.plusMillis(ga))) {
      assertThat(fullReadListing(upserter, at)).isEqualTo(new Listed(2, 2));
      assertThat(row("a").lastSeenAt()).isEqualTo(at);
      assertThat(row("b").lastSeenAt()).isEqualTo(at);
      assertThat(row("a").expiresAt()).isEqualTo(a.expiresAt());
      assertThat(row("b").expiresAt()).isEqualTo(b.expiresAt());
    }

    // beyond a's granularity its expiry moves (g past the rule), b's not yet
    Instant at2 = at1.plusMillis(ga + 1000);
    assertThat(fullReadListing(upserter, at2).written()).isEqualTo(2);
    assertThat(row("a").expiresAt()).isEqualTo(at2.plusMillis(DAY + ga));
    assertThat(row("b").expiresAt()).isEqualTo(b.expiresAt());

    // a late outcome (an earlier listing) moves nothing and writes nothing
    assertThat(fullReadListing(upserter, at1).written()).isZero();
    assertThat(row("a").lastSeenAt()).isEqualTo(at2);
    assertThat(row("old")).as("not listed").isEqualTo(old);
  }

  @Test
  void withAGranularityOfZeroEveryListingAppliesTheRuleExactly() {
    var exact = new ContentUpserter(jdbcTemplate, json, KeepAlive.EXACT);
    for (Instant at : List.of(t.plusSeconds(60), t.plusSeconds(61))) {
      assertThat(fullReadListing(exact, at).written()).isEqualTo(2);
      assertThat(row("a").lastSeenAt()).isEqualTo(at);
      assertThat(row("a").expiresAt()).isEqualTo(at.plusMillis(DAY));
      assertThat(row("b").expiresAt()).isEqualTo(at.plusMillis(NINETY_DAYS));
    }
  }

  /** Stores {@code item}'s version 1 as fetched at {@code at}, in one transaction: HOT updates. */
  private long arrive(ContentUpserter sink, String item, Instant at) {
    var version = ContentVersion.of(ContentEvents.item(source, item, 1, at), Duration.ofDays(1));
    return hotUpdatesOf(() -> sink.upsert(UpsertPlan.of(List.of(version))));
  }

  @Test
  void anArrivalIsStoredTheGranularityPastTheRuleSoItsNextListingsAndRedeliveriesAreHot() {
    long g = upserter.keepAlive().granularityMs(DAY);
    Instant at = t.plusSeconds(600);
    arrive(upserter, "new", at);
    assertThat(row("new").expiresAt()).isEqualTo(at.plusMillis(DAY + g));
    assertThat(row("new").lastSeenAt()).isEqualTo(at);

    // a redelivery fetched a second later, and a listing within g: last_seen_at only, HOT
    assertThat(arrive(upserter, "new", at.plusSeconds(1))).isEqualTo(1);
    assertThat(row("new").lastSeenAt()).isEqualTo(at.plusSeconds(1));
    Instant listedAt = at.plusMillis(g);
    long hot =
        hotUpdatesOf(
            () ->
                upserter.extendListed(
                    List.of(
                        new ContentUpserter.Listing(
                            source, "new", ContentEvents.sha256("new@v1"), listedAt))));
    assertThat(hot).isEqualTo(1);
    assertThat(row("new").lastSeenAt()).isEqualTo(listedAt);
    assertThat(row("new").expiresAt()).isEqualTo(at.plusMillis(DAY + g));

    // a redelivery beyond g moves the expiry g past the rule again
    Instant later = listedAt.plusSeconds(1);
    arrive(upserter, "new", later);
    assertThat(row("new").expiresAt()).isEqualTo(later.plusMillis(DAY + g));

    // exactly the rule with a granularity of zero
    var exact = new ContentUpserter(jdbcTemplate, json, KeepAlive.EXACT);
    arrive(exact, "exact", at);
    assertThat(row("exact").expiresAt()).isEqualTo(at.plusMillis(DAY));
  }
}
