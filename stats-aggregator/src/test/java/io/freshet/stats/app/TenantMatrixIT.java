package io.freshet.stats.app;

import static io.freshet.stats.testing.Outcomes.added;
import static io.freshet.stats.testing.Outcomes.outcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.kit.security.Role;
import io.freshet.kit.testing.TestKeys;
import io.freshet.kit.testing.TestKeys.Key;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.stats.testing.StatsApp;
import io.freshet.stats.testing.Topics;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The cross-tenant matrix of the stats API: three tenants' sources, keys admin, write, read,
 * revoked, expired, none and a bogus one, every endpoint against each tenant's source → the status
 * the module README documents; another tenant's source is the same 404 as a source without stats
 * (and listed in {@code unknown}); no other tenant's stats in any body.
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
class TenantMatrixIT {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  record Caller(String name, String tenant, String kind, String authorization) {}

  @Test
  void everyEndpointAnswersEachKeyForItsOwnTenantOnly(KafkaFixture kafka) {
    var topics = new Topics(kafka);
    String run = UUID.randomUUID().toString().substring(0, 8);
    Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3600);
    List<String> tenants = List.of("st" + run + "-a", "st" + run + "-b", "st" + run + "-c");
    List<FetchCompleted> outcomes = new ArrayList<>();
    for (String tenant : tenants) {
      outcomes.add(outcome(tenant + "-src", t).tenant(tenant).items(added("x")).build());
    }
    // a source whose outcomes name no tenant (an older worker): only keys for every tenant see it
    String orphan = "st" + run + "-orphan";
    outcomes.add(outcome(orphan, t).items(added("x")).build());
    topics.send(outcomes);

    try (var app = StatsApp.start("it-tenants-" + run, dir.resolve("s"))) {
      String all = String.join(",", tenants.stream().map(x -> x + "-src").toList()) + "," + orphan;
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                var r = app.get("/stats?ids=" + all); // 503 while Streams is not RUNNING yet
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                assertThat(json(r.body()).get("unknown").size()).isZero();
              });

      Instant past = Instant.now().minusSeconds(60);
      Key admin = TestKeys.make(null, Role.ADMIN, null, null);
      List<Key> keys = new ArrayList<>(List.of(admin));
      List<Key> valid = new ArrayList<>(List.of(admin));
      List<Caller> callers = new ArrayList<>();
      callers.add(new Caller("admin", null, "admin", admin.bearer()));
      callers.add(new Caller("bootstrap", null, "admin", "Bearer " + StatsApp.ADMIN_KEY));
      for (String tenant : tenants) {
        Key write = TestKeys.make(tenant, Role.WRITE, null, null);
        Key read = TestKeys.make(tenant, Role.READ, null, null);
        Key revoked = TestKeys.make(tenant, Role.READ, null, past);
        Key expired = TestKeys.make(tenant, Role.READ, past, null);
        keys.addAll(List.of(write, read, revoked, expired));
        valid.addAll(List.of(write, read));
        callers.add(new Caller("write-" + tenant, tenant, "tenant", write.bearer()));
        callers.add(new Caller("read-" + tenant, tenant, "tenant", read.bearer()));
        callers.add(new Caller("revoked-" + tenant, null, "refused", revoked.bearer()));
        callers.add(new Caller("expired-" + tenant, null, "refused", expired.bearer()));
      }
      callers.add(new Caller("none", null, "refused", null));
      callers.add(new Caller("bogus", null, "refused", "Bearer nope"));
      TestKeys.publish(kafka.bootstrapServers(), topics.topics, keys);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                for (Key k : valid) {
                  assertThat(app.getAs("/stats?ids=" + orphan, k.bearer()).statusCode())
                      .as("key %s known", k.id())
                      .isEqualTo(200);
                }
              });

      var soft = new SoftAssertions();
      for (Caller caller : callers) {
        for (String target : tenants) {
          String source = target + "-src";
          boolean own = caller.tenant() == null || caller.tenant().equals(target);
          String what = caller.name() + " of " + target + ": ";

          var one = app.getAs("/stats/" + source, caller.authorization());
          int expected = caller.kind().equals("refused") ? 401 : own ? 200 : 404;
          soft.assertThat(one.statusCode())
              .as(what + "/stats/{id} " + one.body())
              .isEqualTo(expected);
          if (expected == 404) {
            soft.assertThat(one.body())
                .as(what + "as a source without stats")
                .contains("\"errors\":[\"sourceId: no stats for source '" + source + "'\"]");
          }
          if (expected == 200) {
            soft.assertThat(json(one.body()).get("tenant_id").asString()).isEqualTo(target);
          }
          leaks(soft, what + "/stats/{id}", one.body(), caller, tenants);

          var internal = app.getAs("/internal/stats?ids=" + source, caller.authorization());
          soft.assertThat(internal.statusCode())
              .as(what + "/internal/stats " + internal.body())
              .isEqualTo(caller.kind().equals("refused") ? 401 : 200);
          if (internal.statusCode() == 200) {
            soft.assertThat(json(internal.body()).size())
                .as(what + "/internal/stats")
                .isEqualTo(own ? 1 : 0);
          }
          leaks(soft, what + "/internal/stats", internal.body(), caller, tenants);
        }

        var many = app.getAs("/stats?ids=" + all, caller.authorization());
        String what = caller.name() + ": /stats?ids= ";
        soft.assertThat(many.statusCode())
            .as(what + many.body())
            .isEqualTo(caller.kind().equals("refused") ? 401 : 200);
        if (many.statusCode() == 200) {
          JsonNode body = json(many.body());
          List<String> shown = new ArrayList<>();
          body.get("stats").forEach(s -> shown.add(s.get("source_id").asString()));
          List<String> unknown = new ArrayList<>();
          body.get("unknown").forEach(u -> unknown.add(u.asString()));
          if (caller.tenant() == null) {
            soft.assertThat(shown).as(what).hasSize(4);
            soft.assertThat(unknown).as(what).isEmpty();
          } else {
            soft.assertThat(shown).as(what).containsExactly(caller.tenant() + "-src");
            soft.assertThat(unknown).as(what).hasSize(3).contains(orphan);
          }
        }
        leaks(soft, what, many.body(), caller, tenants);
      }
      soft.assertAll();

      // a key revoked on the scheduler (its state published again, revoked) is refused here
      // within the minute ADR 0014 promises
      Key read = valid.get(2);
      assertThat(read.state().role()).isEqualTo(Role.READ);
      String path = "/stats/" + read.state().tenantId() + "-src";
      assertThat(app.getAs(path, read.bearer()).statusCode()).isEqualTo(200);
      var revokedState =
          new io.freshet.kit.security.KeyState(
              read.id(),
              read.state().tenantId(),
              Role.READ,
              read.state().secretSha256(),
              read.state().createdAt(),
              null,
              Instant.now());
      long start = System.nanoTime();
      TestKeys.publish(
          kafka.bootstrapServers(), topics.topics, List.of(new Key(read.text(), revokedState)));
      await()
          .atMost(Duration.ofMinutes(1))
          .pollInterval(Duration.ofMillis(100))
          .untilAsserted(
              () -> assertThat(app.getAs(path, read.bearer()).statusCode()).isEqualTo(401));
      System.out.printf(
          "revocation of %s reached the aggregator in %d ms%n",
          read.id(), Duration.ofNanos(System.nanoTime() - start).toMillis());
    }
  }

  /** A tenant key's body holds no other tenant's stats; a refused one's none at all. */
  private static void leaks(
      SoftAssertions soft, String what, String body, Caller caller, List<String> tenants) {
    for (String other : tenants) {
      if (caller.kind().equals("refused")
          || (caller.tenant() != null && !caller.tenant().equals(other))) {
        soft.assertThat(body)
            .as(what + " data of " + other)
            .doesNotContain("\"tenant_id\":\"" + other + "\"");
        soft.assertThat(body)
            .as(what + " stats of " + other)
            .doesNotContain("\"source_id\":\"" + other);
      }
    }
  }

  private static JsonNode json(String body) {
    return JSON.readTree(body);
  }
}
