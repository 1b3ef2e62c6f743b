package io.freshet.scheduler.api.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import io.freshet.scheduler.api.ApiTesting;
import io.freshet.schemas.crypto.CredentialCipher;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class SourceApiIT extends ApiItSupport {

  @Autowired CredentialCipher cipher;

  @BeforeEach
  void setUp() {
    tenant = api.newTenant("starter");
  }

  @Test
  void aCreatedSourceReadsBackAsSentAndIsDueAtOnce() {
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusMillis(1);
    ApiClient.Response created =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "City events", "connector": "ical",
             "url": "https://Calendar.Example.org/city.ics", "category": "calendar",
             "priority": 5, "enabled": true,
             "config": {"cadence": {"mode": "interval", "every_minutes": 360},
                        "retention_days": 90, "item_limit": 200}}
            """
                .formatted(tenant));

    assertThat(created.status()).isEqualTo(201);
    UUID id = created.id();
    assertThat(created.headers().firstValue("Location"))
        .hasValueSatisfying(l -> assertThat(l).endsWith("/sources/" + id));
    JsonNode view = api.get("/sources/" + id).json();
    assertThat(view).isEqualTo(created.json());
    assertThat(view.get("tenant_id").stringValue()).isEqualTo(tenant);
    assertThat(view.get("name").stringValue()).isEqualTo("City events");
    assertThat(view.get("connector").stringValue()).isEqualTo("ical");
    assertThat(view.get("url").stringValue()).isEqualTo("https://Calendar.Example.org/city.ics");
    assertThat(view.get("category").stringValue()).isEqualTo("calendar");
    assertThat(view.get("priority").intValue()).isEqualTo(5);
    assertThat(view.get("enabled").booleanValue()).isTrue();
    assertThat(view.get("config").get("cadence").get("every_minutes").intValue()).isEqualTo(360);
    assertThat(view.get("config").get("item_limit").intValue()).isEqualTo(200);
    assertThat(view.get("has_credentials").booleanValue()).isFalse();
    assertThat(view.get("cursor").isEmpty()).isTrue();
    JsonNode schedule = view.get("schedule");
    Instant due = Instant.parse(schedule.get("next_due_at").stringValue());
    assertThat(due).isBetween(before, Instant.now());
    assertThat(schedule.get("last_fetch_at").isNull()).isTrue();
    assertThat(schedule.get("lease_until").isNull()).isTrue();
    assertThat(schedule.get("manual_requested").booleanValue()).isFalse();
    assertThat(view.get("stats").get("window_fetches").intValue()).isZero();
    assertThat(view.has("created_at")).isTrue();
    assertThat(
            jdbc.sql("SELECT host FROM scheduler.sources WHERE id = ?")
                .param(id)
                .query(String.class)
                .single())
        .isEqualTo("calendar.example.org");
  }

  @Test
  void credentialsAreNeverReturnedAndAreStoredOnlySealed() {
    String secret = "hunter2-" + UUID.randomUUID();
    ApiClient.Response created =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "Private API", "connector": "json",
             "url": "https://api.example.org/v1/events",
             "credentials": {"bearer": "%s"}}
            """
                .formatted(tenant, secret));

    assertThat(created.status()).isEqualTo(201);
    UUID id = created.id();
    assertThat(created.text()).doesNotContain(secret);
    assertThat(created.json().has("credentials")).isFalse();
    assertThat(created.json().get("has_credentials").booleanValue()).isTrue();
    assertThat(api.get("/sources/" + id).text()).doesNotContain(secret);
    assertThat(api.get("/sources?tenant_id=" + tenant).text()).doesNotContain(secret);

    byte[] stored = storedCredentials(id);
    assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(secret);
    JsonNode opened = ApiTesting.json().read(cipher.decrypt(stored));
    assertThat(opened.get("bearer").stringValue()).isEqualTo(secret);
  }

  @Test
  void secretLookingCursorValuesAreMaskedAndLastFetchAtIsShown() {
    UUID id = api.newFeed(tenant, "Feed", "https://blog.example.org/rss");
    jdbc.sql(
            """
            UPDATE scheduler.sources SET cursor_json = CAST(? AS jsonb) WHERE id = ?
            """)
        .params(
            """
            {"last_fetch_at": "2026-01-05T10:00:00Z", "etag": "W/\\"42\\"",
             "sync_token": "st-123", "Session": {"id": "s"}, "paging": {"apiKey": "k", "page": 3}}
            """,
            id)
        .update();

    ApiClient.Response view = api.get("/sources/" + id);

    JsonNode cursor = view.json().get("cursor");
    assertThat(cursor.get("etag").stringValue()).isEqualTo("W/\"42\"");
    assertThat(cursor.get("sync_token").stringValue()).isEqualTo("***");
    assertThat(cursor.get("Session").stringValue()).isEqualTo("***");
    assertThat(cursor.get("paging").get("apiKey").stringValue()).isEqualTo("***");
    assertThat(cursor.get("paging").get("page").intValue()).isEqualTo(3);
    assertThat(view.text()).doesNotContain("st-123");
    assertThat(view.json().get("schedule").get("last_fetch_at").stringValue())
        .isEqualTo("2026-01-05T10:00:00Z");
  }

  @Test
  void theListFiltersAndPages() {
    UUID a = api.newFeed(tenant, "Alpha news", "https://a.example.org/feed");
    UUID b = api.newFeed(tenant, "Beta", "https://b.example.org/NEWS.xml");
    UUID c = api.newFeed(tenant, "Gamma", "https://c.example.org/feed");
    UUID d =
        api.post(
                "/sources",
                """
                {"tenant_id": "%s", "name": "Delta", "connector": "html",
                 "url": "https://d.example.org/", "category": "website", "enabled": false}
                """
                    .formatted(tenant))
            .id();
    String t = "/sources?tenant_id=" + tenant;

    JsonNode all = api.get(t).json();
    assertThat(all.get("total").longValue()).isEqualTo(4);
    assertThat(all.get("page").intValue()).isZero();
    assertThat(all.get("size").intValue()).isEqualTo(50);
    assertThat(ids(all)).containsExactly(a, b, c, d);

    assertThat(ids(api.get(t + "&size=3&page=0").json())).containsExactly(a, b, c);
    JsonNode second = api.get(t + "&size=3&page=1").json();
    assertThat(ids(second)).containsExactly(d);
    assertThat(second.get("total").longValue()).isEqualTo(4);
    assertThat(ids(api.get(t + "&size=3&page=2").json())).isEmpty();

    assertThat(ids(api.get(t + "&enabled=false").json())).containsExactly(d);
    assertThat(ids(api.get(t + "&enabled=true").json())).containsExactly(a, b, c);
    assertThat(ids(api.get(t + "&connector=html").json())).containsExactly(d);
    assertThat(ids(api.get(t + "&category=website").json())).containsExactly(d);
    assertThat(ids(api.get(t + "&q=news").json())).containsExactly(a, b);
    assertThat(ids(api.get(t + "&q=100%25").json())).isEmpty();

    ApiClient.Response bad = api.get(t + "&size=501&enabled=maybe&connector=rss&page=-1");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.errors())
        .containsExactlyInAnyOrder(
            "size: must be a whole number between 1 and 500",
            "enabled: must be true or false",
            "connector: allowed values: feed, ical, json, html",
            "page: must be a whole number between 0 and 2147483647");
  }

  @Test
  void anUpdateReplacesTheEditableFieldsAndKeepsReplacesOrRemovesCredentials() {
    UUID id =
        api.post(
                "/sources",
                """
                {"tenant_id": "%s", "name": "Old", "connector": "feed",
                 "url": "https://old.example.org/feed", "credentials": {"query": {"password": "p1"}}}
                """
                    .formatted(tenant))
            .id();
    jdbc.sql("UPDATE scheduler.sources SET cursor_json = '{\"etag\": \"e1\"}' WHERE id = ?")
        .param(id)
        .update();

    ApiClient.Response kept =
        api.put(
            "/sources/" + id,
            """
            {"name": "Renamed", "connector": "feed", "url": "https://old.example.org/feed",
             "category": "rss", "priority": -3, "config": {"cadence": {"mode": "always"}}}
            """);

    assertThat(kept.status()).isEqualTo(200);
    JsonNode view = kept.json();
    assertThat(view.get("name").stringValue()).isEqualTo("Renamed");
    assertThat(view.get("category").stringValue()).isEqualTo("rss");
    assertThat(view.get("priority").intValue()).isEqualTo(-3);
    assertThat(view.get("config").get("cadence").get("mode").stringValue()).isEqualTo("always");
    assertThat(view.get("has_credentials").booleanValue()).isTrue();
    assertThat(view.get("cursor").get("etag").stringValue()).isEqualTo("e1");
    assertThat(cipher.decrypt(storedCredentials(id)))
        .isEqualTo("{\"query\":{\"password\":\"p1\"}}");

    ApiClient.Response replaced =
        api.put(
            "/sources/" + id,
            """
            {"tenant_id": "%s", "name": "Moved", "connector": "feed",
             "url": "https://new.example.org/feed", "credentials": {"query": {"password": "p2"}}}
            """
                .formatted(tenant));

    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().get("url").stringValue()).isEqualTo("https://new.example.org/feed");
    assertThat(replaced.json().get("cursor").isEmpty())
        .as("the old address's ETag must not be sent to the new one")
        .isTrue();
    // Fields the request does not name are kept, not reset to their defaults.
    assertThat(replaced.json().get("category").stringValue()).isEqualTo("rss");
    assertThat(replaced.json().get("priority").intValue()).isEqualTo(-3);
    assertThat(replaced.json().get("config").get("cadence").get("mode").stringValue())
        .isEqualTo("always");
    assertThat(cipher.decrypt(storedCredentials(id)))
        .isEqualTo("{\"query\":{\"password\":\"p2\"}}");
    assertThat(
            jdbc.sql("SELECT host FROM scheduler.sources WHERE id = ?")
                .param(id)
                .query(String.class)
                .single())
        .isEqualTo("new.example.org");

    ApiClient.Response removed =
        api.put(
            "/sources/" + id,
            """
            {"name": "Moved", "connector": "feed", "url": "https://new.example.org/feed",
             "credentials": null}
            """);

    assertThat(removed.json().get("has_credentials").booleanValue()).isFalse();
    assertThat(storedCredentials(id)).isNull();
  }

  @Test
  void anUpdateThatDoesNotNameEnabledLeavesADisabledSourceDisabled() {
    // A disabled source used to come back enabled from a PUT without "enabled".
    UUID id =
        api.post(
                "/sources",
                """
                {"tenant_id": "%s", "name": "Quiet", "connector": "feed",
                 "url": "https://quiet.example.org/feed", "enabled": false}
                """
                    .formatted(tenant))
            .id();

    ApiClient.Response r = api.put("/sources/" + id, "{\"name\": \"Still quiet\"}");

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("name").stringValue()).isEqualTo("Still quiet");
    assertThat(r.json().get("enabled").booleanValue()).isFalse();
    assertThat(r.json().get("url").stringValue()).isEqualTo("https://quiet.example.org/feed");
  }

  @Test
  void aBadUpdateChangesNothing() {
    UUID id = api.newFeed(tenant, "Keep me", "https://keep.example.org/feed");
    String before = api.get("/sources/" + id).text();

    ApiClient.Response bad =
        api.put(
            "/sources/" + id,
            """
            {"tenant_id": "someone-else", "name": "x", "connector": "feed",
             "url": "https://keep.example.org/feed"}
            """);
    ApiClient.Response invalid =
        api.put("/sources/" + id, "{\"name\": \"\", \"connector\": \"feed\", \"url\": \"nope\"}");

    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.errors()).singleElement().asString().startsWith("tenant_id: cannot be changed");
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.errors()).hasSize(2);
    assertThat(api.get("/sources/" + id).text()).isEqualTo(before);
    assertThat(
            api.put(
                    "/sources/" + UUID.randomUUID(),
                    "{\"name\": \"x\", \"connector\": \"feed\", \"url\": \"https://x.org/\"}")
                .status())
        .isEqualTo(404);
  }

  @Test
  void disableAndEnableFlipTheFlag() {
    UUID id = api.newFeed(tenant, "Flip", "https://flip.example.org/feed");

    ApiClient.Response disabled = api.post("/sources/" + id + "/disable", null);
    assertThat(disabled.status()).isEqualTo(200);
    assertThat(disabled.json().get("enabled").booleanValue()).isFalse();

    ApiClient.Response enabled = api.post("/sources/" + id + "/enable", null);
    assertThat(enabled.status()).isEqualTo(200);
    assertThat(enabled.json().get("enabled").booleanValue()).isTrue();
    assertThat(api.post("/sources/" + UUID.randomUUID() + "/enable", null).status()).isEqualTo(404);
  }

  @Test
  void whatTheServerSaidReadsBackMaskedAndEnablingAGoneSourceClearsItsReason() {
    UUID id = api.newFeed(tenant, "Moved", "https://old.example.org/feed?api_key=old-secret");
    assertThat(api.get("/sources/" + id).json().get("server").get("previous_urls").isEmpty())
        .isTrue();
    jdbc.sql(
            """
            UPDATE scheduler.sources SET enabled = false, disabled_reason = 'gone',
              hints = '{"ttl_minutes": 60}', hint_not_before = now() + interval '1 hour',
              moved_to = 'https://new.example.org/feed?api_key=new-secret',
              hub_url = 'https://hub.example/', consecutive_misses = 3
            WHERE id = :id
            """)
        .param("id", id)
        .update();
    jdbc.sql(
            """
            INSERT INTO scheduler.source_url_history (source_id, url, replaced_by, reason, replaced_at)
            VALUES (:id, 'https://older.example.org/feed?api_key=older-secret',
                    'https://old.example.org/feed?api_key=old-secret', 'moved_permanently', now())
            """)
        .param("id", id)
        .update();

    JsonNode view = api.get("/sources/" + id).json();

    JsonNode server = view.get("server");
    assertThat(server.get("disabled_reason").stringValue()).isEqualTo("gone");
    assertThat(server.get("hints").get("ttl_minutes").intValue()).isEqualTo(60);
    assertThat(server.get("hints_hold_until").isNull()).isFalse();
    assertThat(server.get("hub_url").stringValue()).isEqualTo("https://hub.example/");
    assertThat(server.get("moved_to").stringValue())
        .contains("new.example.org")
        .doesNotContain("new-secret");
    JsonNode previous = server.get("previous_urls").get(0);
    assertThat(previous.get("reason").stringValue()).isEqualTo("moved_permanently");
    assertThat(previous.get("url").stringValue()).contains("older.example.org");
    assertThat(previous.toString()).doesNotContain("older-secret").doesNotContain("old-secret");
    assertThat(view.get("schedule").get("failing").booleanValue()).isTrue();

    api.post("/sources/" + id + "/enable", null);
    assertThat(api.get("/sources/" + id).json().get("server").get("disabled_reason").isNull())
        .isTrue();
  }

  @Test
  void connectorOptionsOutOfRangeOrOfUnknownValueAreRefusedNamingTheOption() {
    ApiClient.Response refused =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "Bad", "connector": "json",
             "url": "https://api.example.org/items",
             "config": {"max_pages": 1000000, "hints": "sometimes", "robots": "maybe",
                        "item_limit": -1}}
            """
                .formatted(tenant));

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.text())
        .contains("max_pages")
        .contains("1 to 100")
        .contains("hints")
        .contains("respect, ignore")
        .contains("robots")
        .contains("item_limit");
  }

  @Test
  void deleteRemovesTheSourceAndUnknownOrMalformedIdsAreJsonErrors() {
    UUID id = api.newFeed(tenant, "Bye", "https://bye.example.org/feed");

    assertThat(api.delete("/sources/" + id).status()).isEqualTo(204);

    ApiClient.Response gone = api.get("/sources/" + id);
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.json().get("status").intValue()).isEqualTo(404);
    assertThat(gone.json().get("title").stringValue()).isEqualTo("Not Found");
    assertThat(gone.json().get("type").stringValue()).isEqualTo("about:blank");
    assertThat(gone.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(gone.errors()).containsExactly("no source with id " + id);
    assertThat(api.delete("/sources/" + id).status()).isEqualTo(404);

    ApiClient.Response malformed = api.get("/sources/not-a-uuid");
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.errors()).containsExactly("id: must be a UUID");
  }

  @Test
  void unknownPathsAndMethodsAnswerInTheErrorFormat() {
    ApiClient.Response missing = api.get("/no-such-endpoint");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.errors()).hasSize(1);

    ApiClient.Response method = api.send("PATCH", "/sources", null, null, ApiClient.TOKEN);
    assertThat(method.status()).isEqualTo(405);
    assertThat(method.json().get("title").stringValue()).isEqualTo("Method Not Allowed");
    assertThat(method.errors()).singleElement().asString().startsWith("method: PATCH");
    assertThat(method.headers().firstValue("Content-Type")).hasValue("application/problem+json");

    // a request line over Tomcat's limit never reaches Spring: still a problem, not Tomcat's HTML
    ApiClient.Response tooLong = api.get("/sources?q=" + "x".repeat(20_000));
    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(tooLong.errors()).hasSize(1);
  }

  private byte[] storedCredentials(UUID id) {
    return jdbc.sql("SELECT credentials_encrypted FROM scheduler.sources WHERE id = ?")
        .param(id)
        .query((rs, n) -> rs.getBytes(1))
        .list()
        .getFirst();
  }

  private static java.util.List<UUID> ids(JsonNode page) {
    return page.get("items")
        .valueStream()
        .map(item -> UUID.fromString(item.get("id").stringValue()))
        .toList();
  }
}
