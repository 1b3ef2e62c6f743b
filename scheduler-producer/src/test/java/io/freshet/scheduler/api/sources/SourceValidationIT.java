package io.freshet.scheduler.api.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SourceValidationIT extends ApiItSupport {

  @BeforeEach
  void setUp() {
    tenant = api.newTenant("free");
  }

  @Test
  void aNulCharacterInABodyOrAQueryParameterIsA400NotA500() {
    // PostgreSQL cannot store U+0000; such input used to end in a 500.
    ApiClient.Response body =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "a\\u0000b", "connector": "feed",
             "url": "https://example.org/feed"}
            """
                .formatted(tenant));
    ApiClient.Response query = api.get("/sources?q=x%00y");

    assertThat(body.status()).isEqualTo(400);
    assertThat(body.errors()).singleElement().asString().contains("/name").contains("NUL");
    assertThat(query.status()).isEqualTo(400);
    assertThat(query.errors()).singleElement().asString().startsWith("q: ").contains("NUL");
  }

  @Test
  void everyBadFieldGetsOneMessageAndNothingIsStored() {
    ApiClient.Response r =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "   ", "connector": "rss", "url": "ftp://example.org/x",
             "category": "blogs", "priority": 5000, "enabled": false,
             "config": {"retention_days": -1}}
            """
                .formatted(tenant));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("status").intValue()).isEqualTo(400);
    assertThat(r.json().get("title").stringValue()).isEqualTo("Bad Request");
    assertThat(r.errors())
        .hasSize(6)
        .contains("url: must be an absolute http or https URL")
        .anySatisfy(m -> assertThat(m).startsWith("name: "))
        .anySatisfy(m -> assertThat(m).startsWith("connector: unknown connector \"rss\""))
        .anySatisfy(m -> assertThat(m).startsWith("category: unknown category \"blogs\""))
        .anySatisfy(m -> assertThat(m).startsWith("priority: "))
        .anySatisfy(m -> assertThat(m).startsWith("config.retention_days: "));
    assertThat(count()).isZero();
  }

  @Test
  void eachKindOfBadBodyIsRejectedWithItsOwnMessage() {
    record Case(String body, List<String> prefixes) {}
    String ok = "\"connector\": \"feed\", \"url\": \"https://ok.example.org/feed\"";
    String t = "\"tenant_id\": \"" + tenant + "\"";
    List<Case> cases =
        List.of(
            new Case("{" + ok + "}", List.of("tenant_id: is required", "name: is required")),
            new Case(
                "{\"tenant_id\": \"bad id!\", \"name\": \"n\", " + ok + "}",
                List.of("tenant_id: must be 1 to 100 characters")),
            new Case(
                "{" + t + ", \"name\": \"" + "x".repeat(201) + "\", " + ok + "}",
                List.of("name: must be a non-blank string of at most 200 characters")),
            new Case("{" + t + ", \"name\": 42, " + ok + "}", List.of("name: must be a string")),
            new Case(
                "{" + t + ", \"name\": \"n\", \"connector\": \"feed\", \"url\": \"example.org\"}",
                List.of("url: must be an absolute http or https URL")),
            new Case(
                "{"
                    + t
                    + ", \"name\": \"n\", \"connector\": \"feed\","
                    + " \"url\": \"https://u:p@example.org/\"}",
                List.of("url: must not contain user:password@")),
            new Case(
                "{"
                    + t
                    + ", \"name\": \"n\", \"connector\": \"feed\", \"url\": \"https://x.org/"
                    + "a".repeat(2048)
                    + "\"}",
                List.of("url: must be at most 2048 characters")),
            new Case(
                "{" + t + ", \"name\": \"n\", " + ok + ", \"priority\": 1.5}",
                List.of("priority: must be a whole number")),
            new Case(
                "{" + t + ", \"name\": \"n\", " + ok + ", \"enabled\": \"yes\"}",
                List.of("enabled: must be true or false")),
            new Case(
                "{" + t + ", \"name\": \"n\", " + ok + ", \"colour\": \"red\"}",
                List.of("colour: unknown field; allowed fields: ")),
            new Case(
                "{" + t + ", \"name\": \"n\", " + ok + ", \"config\": \"fast\"}",
                List.of("config: must be a JSON object")),
            new Case(
                "{" + t + ", \"name\": \"n\", " + ok + ", \"config\": {\"retention_days\": 1.5}}",
                List.of("config.retention_days: must be a whole number of days")),
            new Case(
                "{" + t + ", \"name\": \"n\", " + ok + ", \"name\": \"again\"}",
                List.of("body: not valid JSON at line 1, column")),
            new Case("[1, 2]", List.of("body: must be a JSON object")),
            new Case("{\"name\": ", List.of("body: not valid JSON at line 1, column")),
            new Case("", List.of("body: is empty")));

    for (Case c : cases) {
      ApiClient.Response r = api.post("/sources", c.body());

      assertThat(r.status()).as(c.body()).isEqualTo(400);
      assertThat(r.errors()).as(c.body()).hasSameSizeAs(c.prefixes());
      for (int i = 0; i < c.prefixes().size(); i++) {
        assertThat(r.errors().get(i)).as(c.body()).startsWith(c.prefixes().get(i));
      }
    }
    assertThat(count()).isZero();
  }

  @Test
  void cadenceErrorsFromTheCadenceModuleShowUpPerField() {
    ApiClient.Response r =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "Cron", "connector": "ical",
             "url": "https://cal.example.org/a.ics",
             "config": {"cadence": {"mode": "cron", "expression": "61 * * * *",
                                    "zone": "Mars/Olympus", "every_minutes": 5}}}
            """
                .formatted(tenant));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.errors())
        .hasSize(3)
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.expression: '61 * * * *'"))
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.zone: unknown time zone"))
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.every_minutes: unknown key"));

    ApiClient.Response mode =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "Cron", "connector": "ical",
             "url": "https://cal.example.org/a.ics", "config": {"cadence": {"mode": "hourly"}}}
            """
                .formatted(tenant));
    assertThat(mode.errors())
        .singleElement()
        .asString()
        .startsWith("config.cadence.mode: unknown mode 'hourly'; allowed values: always");
    assertThat(count()).isZero();
  }

  @Test
  void anUnknownTenantIsReportedAlongWithTheOtherFields() {
    ApiClient.Response r =
        api.post(
            "/sources",
            "{\"tenant_id\": \"no-such-tenant-x\", \"name\": \"\", \"connector\": \"feed\","
                + " \"url\": \"https://x.org/\"}");

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.errors())
        .containsExactly(
            "name: must be a non-blank string of at most 200 characters",
            "tenant_id: no tenant 'no-such-tenant-x'; create it first with POST /tenants");
  }

  @Test
  void aWrongContentTypeIs415InTheSameFormat() {
    ApiClient.Response r = api.send("POST", "/sources", "text/plain", "{}", ApiClient.TOKEN);

    assertThat(r.status()).isEqualTo(415);
    assertThat(r.errors()).singleElement().asString().contains("application/json");
  }

  @Test
  void creatingBeyondTheTenantLimitIs409NamingTheLimit() {
    String small = api.newTenant("free", 2);
    api.newFeed(small, "One", "https://one.example.org/feed");
    api.newFeed(small, "Two", "https://two.example.org/feed");

    ApiClient.Response third =
        api.post(
            "/sources",
            "{\"tenant_id\": \"%s\", \"name\": \"Three\", \"connector\": \"feed\", \"url\": \"https://three.example.org/feed\"}"
                .formatted(small));

    assertThat(third.status()).isEqualTo(409);
    assertThat(third.errors())
        .singleElement()
        .asString()
        .contains("its limit is 2")
        .contains("tier free");
    assertThat(
            jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE tenant_id = ?")
                .param(small)
                .query(Long.class)
                .single())
        .isEqualTo(2);
  }

  @Test
  void aJsonBodyOverTheLimitIs413AndIsNotReadFurther() {
    String big =
        "{\"tenant_id\": \"%s\", \"name\": \"%s\"}".formatted(tenant, "x".repeat(1_100_000));

    ApiClient.Response r = api.post("/sources", big);

    assertThat(r.status()).isEqualTo(413);
    assertThat(r.errors()).containsExactly("body: larger than the limit of 1 MB");
    assertThat(count()).isZero();
  }

  private long count() {
    return jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE tenant_id = ?")
        .param(tenant)
        .query(Long.class)
        .single();
  }
}
