package io.freshet.push.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.push.store.SubscriptionStore;
import io.freshet.push.websub.Subscription;
import io.freshet.push.websub.Tokens;
import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.RealInfrastructure;
import java.net.URI;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@link SourceFacts}' statements on the real database, against {@link FactsFreshness}' rule: a
 * fact that changes nothing a round reads, within the granularity, leaves the row's version as it
 * was (same {@code ctid}, {@code xmin} and {@code xmax}: not even locked); a changed URL or hub, or
 * a timestamp lagging beyond it, writes a new one; a poll is stored as its records one at a time
 * would be; and the rounds still want a source that was announced within max-silence.
 */
@RealInfrastructure(RealInfrastructure.Component.POSTGRES)
class SourceFactsIT {

  private static final Duration MAX_SILENCE = Duration.ofDays(3);
  private static final String HUB = "https://hub.example/";
  private static final String OTHER_HUB = "https://other-hub.example/";

  private static JdbcTemplate template;
  private static JdbcClient jdbc;
  private static TransactionTemplate tx;
  private static SourceFacts hourly;
  private static SourceFacts exact;
  private static SubscriptionStore subscriptions;

  private final Instant t = Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(Duration.ofDays(10));

  @BeforeAll
  static void database() {
    var ds = new PGSimpleDataSource();
    ds.setUrl(Infrastructure.postgres().jdbcUrl(Infrastructure.postgres().createDatabase("facts")));
    ds.setUser(Infrastructure.postgres().username());
    ds.setPassword(Infrastructure.postgres().password());
    ds.setCurrentSchema("push");
    Flyway.configure().dataSource(ds).schemas("push").defaultSchema("push").load().migrate();
    template = new JdbcTemplate(ds);
    jdbc = JdbcClient.create(template);
    tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
    hourly = new SourceFacts(template, FactsFreshness.of(Duration.ofHours(1), MAX_SILENCE));
    exact = new SourceFacts(template, FactsFreshness.of(Duration.ZERO, MAX_SILENCE));
    subscriptions =
        new SubscriptionStore(
            jdbc, CredentialCipher.fromBase64Key("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="));
  }

  private static String newSource() {
    return "src-" + UUID.randomUUID();
  }

  /** The row's physical version: where it is, who made it, who last locked or deleted it. */
  private static String version(String source) {
    return jdbc.sql(
            "SELECT ctid::text || '/' || xmin::text || '/' || xmax::text FROM sources"
                + " WHERE source_id = :s")
        .param("s", source)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  private static FactsFreshness.Stored stored(String source) {
    return jdbc.sql(
            """
            SELECT tenant_id, url, private, hub_url, self_url, announced_at, requested_at
              FROM sources WHERE source_id = :s
            """)
        .param("s", source)
        .query(
            (rs, n) ->
                new FactsFreshness.Stored(
                    rs.getString(1),
                    rs.getString(2),
                    rs.getBoolean(3),
                    rs.getString(4),
                    rs.getString(5),
                    instant(rs.getTimestamp(6)),
                    instant(rs.getTimestamp(7))))
        .optional()
        .orElse(null);
  }

  private static Instant instant(Timestamp ts) {
    return ts == null ? null : ts.toInstant();
  }

  /** Stores one fact and says whether it made a new row version. */
  private static boolean writes(String source, Runnable fact) {
    String before = version(source);
    fact.run();
    return !java.util.Objects.equals(before, version(source));
  }

  @Test
  void aRepeatedRequestWithinTheGranularityWritesNoRowVersion() {
    String s = newSource();
    String url = "https://a.example/feed";
    assertThat(writes(s, () -> hourly.requested(s, "tenant", url, false, t))).isTrue();
    assertThat(writes(s, () -> hourly.requested(s, "tenant", url, false, t.plusSeconds(1))))
        .isFalse();
    assertThat(writes(s, () -> hourly.requested(s, "tenant", url, false, t.plusSeconds(3600))))
        .as("lags by exactly g")
        .isFalse();
    assertThat(writes(s, () -> hourly.requested(s, "tenant", url, false, t.minusSeconds(60))))
        .as("an older request (a replay)")
        .isFalse();
    assertThat(stored(s).requestedAt()).isEqualTo(t);

    assertThat(writes(s, () -> hourly.requested(s, "tenant", url, false, t.plusSeconds(3601))))
        .as("lags beyond g")
        .isTrue();
    assertThat(stored(s).requestedAt()).isEqualTo(t.plusSeconds(3601));

    String moved = "https://a.example/moved";
    assertThat(writes(s, () -> hourly.requested(s, "tenant", moved, false, t.plusSeconds(3602))))
        .as("a changed URL")
        .isTrue();
    assertThat(stored(s).url()).isEqualTo(moved);
    assertThat(writes(s, () -> hourly.requested(s, "tenant", moved, true, t.plusSeconds(3603))))
        .as("credentials now")
        .isTrue();
    assertThat(stored(s).credentials()).isTrue();
    assertThat(writes(s, () -> hourly.requested(s, "tenant", moved, true, t.plusSeconds(3604))))
        .isFalse();
  }

  @Test
  void aRepeatedAnnouncementWithinTheGranularityWritesNoRowVersion() {
    String s = newSource();
    assertThat(writes(s, () -> hourly.announced(s, "tenant", HUB, null, t))).isTrue();
    assertThat(writes(s, () -> hourly.announced(s, "tenant", HUB, null, t.plusSeconds(1800))))
        .isFalse();
    assertThat(writes(s, () -> hourly.stillAnnounced(s, t.plusSeconds(3000)))).isFalse();
    assertThat(stored(s).announcedAt()).isEqualTo(t);

    Instant twoHours = t.plus(Duration.ofHours(2));
    assertThat(writes(s, () -> hourly.stillAnnounced(s, twoHours))).as("a lagging 304").isTrue();
    assertThat(stored(s).announcedAt()).isEqualTo(twoHours);
    assertThat(writes(s, () -> hourly.stillAnnounced(s, t))).as("an older 304").isFalse();

    Instant moved = twoHours.plusSeconds(1);
    assertThat(writes(s, () -> hourly.announced(s, "tenant", OTHER_HUB, null, moved)))
        .as("another hub")
        .isTrue();
    assertThat(stored(s).hubUrl()).isEqualTo(OTHER_HUB);
    assertThat(stored(s).announcedAt()).isEqualTo(moved);
    String self = "https://a.example/self";
    assertThat(writes(s, () -> hourly.announced(s, "tenant", OTHER_HUB, self, moved)))
        .as("a self URL")
        .isTrue();
    assertThat(stored(s).selfUrl()).isEqualTo(self);

    assertThat(writes(s, () -> hourly.announced(s, "tenant", null, null, moved.plusSeconds(1))))
        .as("no hub any more")
        .isTrue();
    assertThat(stored(s).hubUrl()).isNull();
    assertThat(stored(s).selfUrl()).isNull();
    assertThat(stored(s).announcedAt()).isEqualTo(moved);
    assertThat(writes(s, () -> hourly.stillAnnounced(s, moved.plus(Duration.ofDays(1)))))
        .as("a 304 of a source without a hub")
        .isFalse();
    assertThat(writes(s, () -> hourly.announced(s, "tenant", null, null, moved.plusSeconds(9))))
        .isFalse();
  }

  @Test
  void aNotModifiedSourceWithoutARowGetsNone() {
    String s = newSource();
    hourly.stillAnnounced(s, t);
    assertThat(version(s)).isNull();
  }

  @Test
  void everyWriteIsTheOneTheRuleSays() {
    for (SourceFacts facts : List.of(hourly, exact)) {
      FactsFreshness rule = facts.freshness();
      String s = newSource();
      String url = "https://a.example/" + s;
      // minutes after t: requests, reads announcing a hub (or none), and 304s, some out of order
      Object[][] script = {
        {"304", 0},
        {"req", 0},
        {"req", 10},
        {"ok", 5, HUB},
        {"304", 20},
        {"304", 64},
        {"304", 66},
        {"req", 59},
        {"req", 61},
        {"ok", 70, HUB},
        {"ok", 130, HUB},
        {"304", 100},
        {"ok", 131, OTHER_HUB},
        {"304", 132},
        {"ok", 133, null},
        {"304", 300},
        {"req", 300},
        {"ok", 301, null},
        {"ok", 302, HUB},
        {"304", 302},
        {"304", 302},
        {"req", 400}
      };
      for (Object[] step : script) {
        Instant at = t.plus(Duration.ofMinutes((Integer) step[1]));
        var row = stored(s);
        boolean expected;
        Runnable fact;
        switch ((String) step[0]) {
          case "req" -> {
            expected = rule.requestWrites(row, "tenant", url, false, at);
            fact = () -> facts.requested(s, "tenant", url, false, at);
          }
          case "ok" -> {
            String hub = (String) step[2];
            expected = rule.announcementWrites(row, hub, null, at);
            fact = () -> facts.announced(s, "tenant", hub, null, at);
          }
          default -> {
            expected = rule.notModifiedWrites(row, at);
            fact = () -> facts.stillAnnounced(s, at);
          }
        }
        assertThat(writes(s, fact))
            .as("%s, g %s: %s at +%s min", s, rule.granularity(), step[0], step[1])
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void exactTimesMoveWithEveryLaterFact() {
    String s = newSource();
    exact.announced(s, "tenant", HUB, null, t);
    exact.stillAnnounced(s, t.plusMillis(1));
    assertThat(stored(s).announcedAt()).isEqualTo(t.plusMillis(1));
    exact.announced(s, "tenant", HUB, null, t.plusMillis(2));
    assertThat(stored(s).announcedAt()).isEqualTo(t.plusMillis(2));
    exact.requested(s, "tenant", "https://a.example/", false, t);
    exact.requested(s, "tenant", "https://a.example/", false, t.plusMillis(3));
    assertThat(stored(s).requestedAt()).isEqualTo(t.plusMillis(3));
  }

  @Test
  void aPollIsStoredInItsOrderAsItsRecordsOneAtATime() {
    Instant h = t.plus(Duration.ofHours(2));
    for (SourceFacts facts : List.of(hourly, exact)) {
      String batched = newSource();
      String single = newSource();
      for (var pair : List.of(Map.entry(batched, true), Map.entry(single, false))) {
        String s = pair.getKey();
        List<SourceFacts.Completed> outcomes =
            List.of(
                SourceFacts.Completed.read(s, "tenant", HUB, "https://a.example/self", t),
                SourceFacts.Completed.notModified(s, h),
                SourceFacts.Completed.read(s, "tenant", OTHER_HUB, null, h.plusSeconds(1)),
                SourceFacts.Completed.notModified(s, h.plus(Duration.ofHours(2))),
                SourceFacts.Completed.read(s, "tenant", null, null, h.plus(Duration.ofHours(3))),
                SourceFacts.Completed.notModified(s, h.plus(Duration.ofHours(5))));
        List<SourceFacts.Requested> requests =
            List.of(
                new SourceFacts.Requested(s, "tenant", "https://a.example/1", false, t),
                new SourceFacts.Requested(
                    s, "tenant", "https://a.example/2", true, h.plusSeconds(9)),
                new SourceFacts.Requested(s, "tenant", "https://a.example/3", false, h));
        if (pair.getValue()) {
          tx.executeWithoutResult(st -> facts.completedAll(outcomes));
          tx.executeWithoutResult(st -> facts.requestedAll(requests));
        } else {
          outcomes.forEach(c -> facts.completedAll(List.of(c)));
          requests.forEach(r -> facts.requestedAll(List.of(r)));
        }
      }
      // the last request's URL and flag, the latest time; the hub the last read announced (none),
      // and when one was last announced
      var expected =
          new FactsFreshness.Stored(
              "tenant",
              "https://a.example/3",
              false,
              null,
              null,
              h.plus(Duration.ofHours(2)),
              h.plusSeconds(9));
      assertThat(stored(batched)).as("batched, g %s", facts.freshness()).isEqualTo(expected);
      assertThat(stored(single)).as("one at a time, g %s", facts.freshness()).isEqualTo(expected);
    }
  }

  /** Every column of the row but its id, {@code updated_at} included, as text. */
  private static String row(String source) {
    return jdbc.sql(
            """
            SELECT (tenant_id, url, private, hub_url, self_url, announced_at, requested_at,
                    updated_at)::text
              FROM sources WHERE source_id = :s
            """)
        .param("s", source)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  /**
   * The reference: the statement the outcomes had before they were one statement per poll, one
   * execution per outcome (a data-modifying CTE for a 304, the upsert for a read).
   */
  private static void reference(SourceFacts facts, SourceFacts.Completed c) {
    String at = "(%1$s IS NULL OR %1$s < %2$s - interval '%3$d milliseconds')";
    long g = facts.freshness().granularityMs();
    String sql =
        """
        WITH r(id, tenant, hub, self, at, not_modified) AS (
          VALUES (?::text, ?::text, ?::text, ?::text, ?::timestamptz, ?::boolean)
        ),
        still AS (
          UPDATE sources s SET announced_at = GREATEST(s.announced_at, r.at), updated_at = r.at
            FROM r
           WHERE r.not_modified AND s.source_id = r.id AND s.hub_url IS NOT NULL AND %s
        )
        INSERT INTO sources AS s (source_id, tenant_id, hub_url, self_url, announced_at,
                                  updated_at)
        SELECT r.id, r.tenant, r.hub, r.self, CASE WHEN r.hub IS NOT NULL THEN r.at END, r.at
          FROM r
         WHERE NOT r.not_modified
           AND NOT EXISTS (
             SELECT 1 FROM sources o
              WHERE o.source_id = r.id AND o.hub_url IS NOT DISTINCT FROM r.hub
                AND o.self_url IS NOT DISTINCT FROM r.self
                AND NOT (r.hub IS NOT NULL AND %s))
        ON CONFLICT (source_id) DO UPDATE SET hub_url = EXCLUDED.hub_url,
            self_url = EXCLUDED.self_url,
            announced_at = COALESCE(EXCLUDED.announced_at, s.announced_at),
            updated_at = EXCLUDED.updated_at
         WHERE s.hub_url IS DISTINCT FROM EXCLUDED.hub_url
            OR s.self_url IS DISTINCT FROM EXCLUDED.self_url
            OR (EXCLUDED.hub_url IS NOT NULL AND %s)
        """
            .formatted(
                at.formatted("s.announced_at", "r.at", g),
                at.formatted("o.announced_at", "r.at", g),
                at.formatted("s.announced_at", "EXCLUDED.announced_at", g));
    String hub = c.notModified() ? null : SourceFacts.httpUrl(c.hub());
    template.update(
        sql,
        c.sourceId(),
        c.tenantId() == null ? "" : c.tenantId(),
        hub,
        hub == null ? null : SourceFacts.httpUrl(c.self()),
        Timestamp.from(c.at()),
        c.notModified());
  }

  /** An outcome of {@code c}'s kind and values for another source. */
  private static SourceFacts.Completed forSource(String source, SourceFacts.Completed c) {
    return new SourceFacts.Completed(
        source, c.tenantId(), c.hub(), c.self(), c.at(), c.notModified());
  }

  @Test
  void aPollOfSeveralSourcesEndsAsThePerRecordStatementLeftItAndLeavesNoOpRowsUntouched() {
    Instant h = t.plus(Duration.ofHours(2));
    String self = "https://a.example/self";
    for (SourceFacts facts : List.of(hourly, exact)) {
      // per source: what is stored before (one at a time), then its outcome in the poll
      List<SourceFacts.Completed> before = new java.util.ArrayList<>();
      List<SourceFacts.Completed> poll = new java.util.ArrayList<>();
      String lagging = newSource();
      before.add(SourceFacts.Completed.read(lagging, "tenant", HUB, self, t));
      poll.add(SourceFacts.Completed.notModified(lagging, h));
      String fresh = newSource();
      before.add(SourceFacts.Completed.read(fresh, "tenant", HUB, null, t));
      poll.add(SourceFacts.Completed.notModified(fresh, t.plus(Duration.ofMinutes(30))));
      String hubless = newSource();
      before.add(SourceFacts.Completed.read(hubless, "tenant", null, null, t));
      poll.add(SourceFacts.Completed.notModified(hubless, h.plus(Duration.ofHours(3))));
      String unknown = newSource();
      poll.add(SourceFacts.Completed.notModified(unknown, h));
      String created = newSource();
      poll.add(SourceFacts.Completed.read(created, "tenant", HUB, self, h));
      String moved = newSource();
      before.add(SourceFacts.Completed.read(moved, "tenant", HUB, null, t));
      poll.add(SourceFacts.Completed.read(moved, "tenant", OTHER_HUB, null, t.plusSeconds(1)));
      String same = newSource();
      before.add(SourceFacts.Completed.read(same, "tenant", HUB, self, t));
      poll.add(SourceFacts.Completed.read(same, "tenant", HUB, self, t.plusSeconds(600)));
      String dropped = newSource();
      before.add(SourceFacts.Completed.read(dropped, "tenant", HUB, self, t));
      poll.add(SourceFacts.Completed.read(dropped, "tenant", null, null, h));
      String requested = newSource();
      poll.add(SourceFacts.Completed.read(requested, "tenant", HUB, null, h));
      java.util.Collections.reverse(poll); // not in source id order either

      Map<String, String> twins = new java.util.HashMap<>();
      for (var c : poll) {
        twins.put(c.sourceId(), newSource());
      }
      for (String s : List.of(requested, twins.get(requested))) {
        facts.requested(s, "tenant", "https://a.example/feed", false, t);
      }
      for (var c : before) {
        facts.completedAll(List.of(c));
        reference(facts, forSource(twins.get(c.sourceId()), c));
      }
      Map<String, String> versions = new java.util.HashMap<>();
      poll.forEach(c -> versions.put(c.sourceId(), version(c.sourceId())));

      tx.executeWithoutResult(st -> facts.completedAll(poll));
      poll.forEach(c -> reference(facts, forSource(twins.get(c.sourceId()), c)));

      for (var c : poll) {
        assertThat(row(c.sourceId()))
            .as("g %s: %s", facts.freshness().granularity(), c)
            .isEqualTo(row(twins.get(c.sourceId())));
      }
      assertThat(stored(lagging).announcedAt()).isEqualTo(h);
      assertThat(stored(lagging).selfUrl()).isEqualTo(self);
      assertThat(stored(moved).hubUrl()).isEqualTo(OTHER_HUB);
      assertThat(stored(dropped).hubUrl()).isNull();
      assertThat(stored(dropped).announcedAt()).isEqualTo(t);
      assertThat(stored(created).hubUrl()).isEqualTo(HUB);
      assertThat(stored(requested).url()).isEqualTo("https://a.example/feed");
      assertThat(stored(requested).hubUrl()).isEqualTo(HUB);
      assertThat(version(unknown)).isNull();
      List<String> untouched = new java.util.ArrayList<>(List.of(hubless));
      if (facts == hourly) {
        untouched.addAll(List.of(fresh, same));
      } else {
        assertThat(stored(fresh).announcedAt()).isEqualTo(t.plus(Duration.ofMinutes(30)));
      }
      for (String s : untouched) {
        assertThat(version(s))
            .as("g %s: a no-op neither writes nor locks", facts.freshness().granularity())
            .isEqualTo(versions.get(s));
      }
    }
  }

  @Test
  void aSourceRepeatedInAPollEndsAsThePerRecordStatementOneAfterAnotherLeftIt() {
    String self = "https://a.example/self";
    for (int seed = 0; seed < 20; seed++) {
      java.util.Random random = new java.util.Random(seed);
      for (SourceFacts facts : List.of(hourly, exact)) {
        List<String> sources = new java.util.ArrayList<>();
        Map<String, String> twins = new java.util.HashMap<>();
        for (int i = 0; i < 5; i++) {
          String s = newSource();
          sources.add(s);
          twins.put(s, newSource());
        }
        // minutes after t, some out of order; every kind, a source repeated up to many times
        java.util.function.Supplier<SourceFacts.Completed> next =
            () -> {
              String s = sources.get(random.nextInt(sources.size()));
              Instant at = t.plus(Duration.ofMinutes(random.nextInt(600)));
              return switch (random.nextInt(5)) {
                case 0 -> SourceFacts.Completed.read(s, "tenant", HUB, null, at);
                case 1 -> SourceFacts.Completed.read(s, "tenant", OTHER_HUB, self, at);
                case 2 -> SourceFacts.Completed.read(s, "tenant", null, null, at);
                default -> SourceFacts.Completed.notModified(s, at);
              };
            };
        for (int i = 0; i < 4; i++) {
          var c = next.get();
          facts.completedAll(List.of(c));
          reference(facts, forSource(twins.get(c.sourceId()), c));
        }
        List<SourceFacts.Completed> poll = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
          poll.add(next.get());
        }
        tx.executeWithoutResult(st -> facts.completedAll(poll));
        poll.forEach(c -> reference(facts, forSource(twins.get(c.sourceId()), c)));
        for (String s : sources) {
          assertThat(row(s))
              .as("seed %d, g %s: %s", seed, facts.freshness().granularity(), poll)
              .isEqualTo(row(twins.get(s)));
        }
      }
    }
  }

  @Test
  void aRefusedRecordFailsItsWholePollWhichStoresNothing() {
    String good = newSource();
    String refused = newSource();
    assertThatThrownBy(
            () ->
                tx.executeWithoutResult(
                    st ->
                        hourly.completedAll(
                            List.of(
                                SourceFacts.Completed.read(good, "tenant", HUB, null, t),
                                SourceFacts.Completed.read(
                                    refused, "ten\u0000ant", HUB, null, t)))))
        .isInstanceOf(RuntimeException.class);
    assertThat(version(good)).isNull();
    // stored one at a time, as the listener then does, only the refused one fails
    hourly.completedAll(List.of(SourceFacts.Completed.read(good, "tenant", HUB, null, t)));
    assertThat(stored(good).hubUrl()).isEqualTo(HUB);
  }

  @Test
  void theRoundsWantASourceAnnouncedWithinMaxSilenceThoughItsStoredTimeLags() {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    FactsFreshness rule = hourly.freshness();
    // announced 3 d 30 min ago, and by a 304 55 min later: within max-silence, but the 304 was
    // within g of the stored time, which stayed
    String kept = newSource();
    Instant first = now.minus(MAX_SILENCE).minus(Duration.ofMinutes(30));
    hourly.requested(kept, "tenant", "https://kept.example/feed", false, first);
    hourly.announced(kept, "tenant", HUB, null, first);
    hourly.stillAnnounced(kept, first.plus(Duration.ofMinutes(55)));
    assertThat(stored(kept).announcedAt()).isEqualTo(first);
    // last announced 3 d 61 min ago: not wanted, with the granularity or without
    String silent = newSource();
    Instant last = now.minus(MAX_SILENCE).minus(Duration.ofMinutes(61));
    hourly.requested(silent, "tenant", "https://silent.example/feed", false, last);
    hourly.announced(silent, "tenant", HUB, null, last);

    Instant since = rule.wantedSince(now, MAX_SILENCE);
    Tokens tokens = new Tokens();
    subscriptions.createMissing(
        since,
        now,
        (source, tenant, topic, hub) ->
            Subscription.create(UUID.randomUUID(), source, tenant, topic, hub, tokens),
        10_000);
    Map<String, Boolean> wanted =
        subscriptions.open(since, 10_000).stream()
            .collect(
                java.util.stream.Collectors.toMap(
                    o -> o.subscription().sourceId(), SubscriptionStore.Open::wanted));
    assertThat(wanted).containsEntry(kept, true).doesNotContainKey(silent);

    // a subscription the silent source held is no longer wanted: the round unsubscribes it
    subscriptions.insert(
        Subscription.create(
            UUID.randomUUID(),
            silent,
            "tenant",
            URI.create("https://silent.example/feed"),
            URI.create(HUB),
            tokens),
        now);
    assertThat(
            subscriptions.open(since, 10_000).stream()
                .filter(o -> o.subscription().sourceId().equals(silent))
                .map(SubscriptionStore.Open::wanted))
        .containsExactly(false);
    // and once a fetch announces it again, it is wanted again
    hourly.stillAnnounced(silent, now);
    assertThat(
            subscriptions.open(since, 10_000).stream()
                .filter(o -> o.subscription().sourceId().equals(silent))
                .map(SubscriptionStore.Open::wanted))
        .containsExactly(true);
  }
}
