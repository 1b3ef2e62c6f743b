package io.freshet.scheduler.api.imports;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SourceImportIT extends ApiItSupport {

  static final String NDJSON = "application/x-ndjson";

  @BeforeEach
  void setUp() {
    tenant = api.newTenant("starter");
  }

  private ApiClient.Response importAs(String contentType, String body, String tenantId) {
    String query = tenantId == null ? "" : "?tenant_id=" + tenantId;
    String path = contentType.equals(NDJSON) ? "/sources/import/ndjson" : "/sources/import/opml";
    return api.send("POST", path + query, contentType, body, ApiClient.TOKEN);
  }

  @Test
  void ndjsonCreatesNewSourcesAndSkipsWhatTheTenantAlreadyHas() {
    UUID existing = api.newFeed(tenant, "Existing", "https://existing.example.org/feed");
    String body =
        """
        {"name": "Existing again", "connector": "feed", "url": "https://existing.example.org/feed"}
        {"name": "Calendar", "connector": "ical", "url": "https://cal.example.org/a.ics", "category": "calendar"}

        {"name": "Same URL, other connector", "connector": "html", "url": "https://existing.example.org/feed"}
        {"name": "Calendar twice", "connector": "ical", "url": "https://cal.example.org/a.ics"}
        {"tenant_id": "%s", "name": "API", "connector": "json", "url": "https://api.example.org/v1", "credentials": {"headers": {"X-Key": "k"}}}
        """
            .formatted(tenant);

    ApiClient.Response r = importAs(NDJSON, body, tenant);

    assertThat(r.status()).isEqualTo(201);
    JsonNode result = r.json();
    assertThat(result.get("created").intValue()).isEqualTo(3);
    assertThat(result.get("skipped_existing").intValue()).isEqualTo(2);
    List<UUID> ids =
        result.get("ids").valueStream().map(n -> UUID.fromString(n.stringValue())).toList();
    assertThat(ids).hasSize(3).doesNotContain(existing);
    assertThat(ids)
        .extracting(id -> api.get("/sources/" + id).json().get("name").stringValue())
        .containsExactly("Calendar", "Same URL, other connector", "API");
    assertThat(api.get("/sources/" + ids.get(2)).json().get("has_credentials").booleanValue())
        .isTrue();
    assertThat(count(tenant)).isEqualTo(4);
  }

  @Test
  void aBulkImportsFirstFetchesAreSpreadOverTheImportSpreadNotDueAtOneInstant() {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      body.append(
          "{\"name\": \"F%d\", \"connector\": \"feed\", \"url\": \"https://spread%d.example.org/feed\"}\n"
              .formatted(i, i));
    }
    java.time.Instant before = java.time.Instant.now().minusSeconds(1);

    ApiClient.Response r = importAs(NDJSON, body.toString(), tenant);

    assertThat(r.status()).isEqualTo(201);
    List<java.time.Instant> due =
        jdbc.sql("SELECT next_due_at FROM scheduler.sources WHERE tenant_id = :t ORDER BY 1")
            .param("t", tenant)
            .query((rs, n) -> rs.getTimestamp(1).toInstant())
            .list();
    assertThat(due).hasSize(200);
    // freshet.scheduler.web.import-spread: 15 minutes by default
    assertThat(due.getFirst()).isAfterOrEqualTo(before);
    assertThat(due.getLast())
        .isBefore(java.time.Instant.now().plus(java.time.Duration.ofMinutes(15)));
    assertThat(java.time.Duration.between(due.getFirst(), due.getLast()))
        .isGreaterThan(java.time.Duration.ofMinutes(12));
    assertThat(due.stream().map(t -> t.getEpochSecond()).distinct().count()).isGreaterThan(150);
  }

  @Test
  void oneBadLineRejectsTheWholeImportWithEveryProblemByLine() {
    String body =
        """
        {"name": "Good", "connector": "feed", "url": "https://good.example.org/feed"}
        {"name": "", "connector": "feed", "url": "not a url"}
        {"name": "Broken JSON", "connector": "feed", "url":
        {"name": "Cadence", "connector": "feed", "url": "https://c.example.org/", "config": {"cadence": {"mode": "interval"}}}
        """;

    ApiClient.Response r = importAs(NDJSON, body, tenant);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.errors())
        .singleElement()
        .asString()
        .startsWith("line 3: not valid JSON at column");

    ApiClient.Response fields =
        importAs(
            NDJSON, body.replace("\"url\":\n", "\"url\": \"https://b.example.org/\"}\n"), tenant);

    assertThat(fields.status()).isEqualTo(400);
    assertThat(fields.errors())
        .containsExactly(
            "line 2: name: must be a non-blank string of at most 200 characters",
            "line 2: url: must be an absolute http or https URL",
            "line 4: config.cadence.every_minutes: is required: a whole number of minutes ≥ 1");
    assertThat(count(tenant)).isZero();
  }

  @Test
  void theTenantLimitHoldsForTheWholeBatch() {
    String small = api.newTenant("free", 3);
    api.newFeed(small, "Already", "https://already.example.org/feed");
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      body.append(
          "{\"name\": \"F%d\", \"connector\": \"feed\", \"url\": \"https://f%d.example.org/\"}\n"
              .formatted(i, i));
    }

    ApiClient.Response r = importAs(NDJSON, body.toString(), small);

    assertThat(r.status()).isEqualTo(409);
    assertThat(r.errors()).singleElement().asString().contains("limit is 3").contains("add 3");
    assertThat(count(small)).isEqualTo(1);
  }

  @Test
  void anUnknownOrMissingTenantIsRejected() {
    String line = "{\"name\": \"x\", \"connector\": \"feed\", \"url\": \"https://x.example.org/\"}";

    assertThat(importAs(NDJSON, line, "no-such-tenant-y").errors())
        .containsExactly(
            "tenant_id: no tenant 'no-such-tenant-y'; create it first with POST /tenants");
    assertThat(importAs(NDJSON, line, null).errors())
        .singleElement()
        .asString()
        .startsWith("line 1: tenant_id: is required");
    assertThat(importAs("text/x-opml", OpmlImportTest.SUBSCRIPTIONS, null).errors())
        .containsExactly("tenant_id: an admin key acts for every tenant, so say which tenant");
  }

  @Test
  void tooManyLinesIs413() {
    String body = "{}\n".repeat(50_001);

    ApiClient.Response r = importAs(NDJSON, body, tenant);

    assertThat(r.status()).isEqualTo(413);
    assertThat(r.errors()).singleElement().asString().contains("50000");
  }

  @Test
  void anOpmlSubscriptionListBecomesFeedsWithCategoriesFromTheirFolders() {
    String opml =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- exported by a feed reader -->
        <opml version="2.0">
          <head>
            <title>Ada's subscriptions</title>
            <dateCreated>Mon, 05 Jan 2026 09:00:00 GMT</dateCreated>
            <ownerName>Ada</ownerName>
          </head>
          <body>
            <outline text="Social" title="Social">
              <outline text="Mastodon: freshet" type="rss" xmlUrl="https://social.example/@freshet.rss" htmlUrl="https://social.example/@freshet"/>
              <outline text="Friends">
                <outline text="Bob's posts" type="rss" xmlUrl="https://bob.example.net/feed/"/>
              </outline>
            </outline>
            <outline text="Institutional">
              <outline title="City Council — Agenda" text="council" type="rss" xmlUrl="https://council.example.gov/agenda.rss"/>
            </outline>
            <outline text="Reading list">
              <outline text="Long reads" type="rss" xmlUrl="https://reads.example.com/atom.xml"/>
              <outline text="Long reads (dup)" type="rss" xmlUrl="https://reads.example.com/atom.xml"/>
            </outline>
          </body>
        </opml>
        """;

    ApiClient.Response r = importAs("text/x-opml", opml, tenant);

    assertThat(r.status()).isEqualTo(201);
    assertThat(r.json().get("created").intValue()).isEqualTo(4);
    assertThat(r.json().get("skipped_existing").intValue()).isEqualTo(1);
    List<JsonNode> items =
        api.get("/sources?tenant_id=" + tenant).json().get("items").valueStream().toList();
    assertThat(items)
        .extracting(
            i -> i.get("name").stringValue(),
            i -> i.get("connector").stringValue(),
            i -> i.get("category").isNull() ? null : i.get("category").stringValue())
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("Mastodon: freshet", "feed", "social"),
            org.assertj.core.groups.Tuple.tuple("Bob's posts", "feed", "social"),
            org.assertj.core.groups.Tuple.tuple("City Council — Agenda", "feed", "institutional"),
            org.assertj.core.groups.Tuple.tuple("Long reads", "feed", null));
    assertThat(
            jdbc.sql("SELECT host FROM scheduler.sources WHERE tenant_id = ? AND name = ?")
                .params(tenant, "Bob's posts")
                .query(String.class)
                .single())
        .isEqualTo("bob.example.net");

    ApiClient.Response again = importAs("application/xml", opml, tenant);
    assertThat(again.json().get("created").intValue()).isZero();
    assertThat(again.json().get("skipped_existing").intValue()).isEqualTo(5);
  }

  @Test
  void aBadOutlineRejectsTheWholeOpml() {
    String opml =
        """
        <opml version="2.0"><head/><body>
          <outline text="Fine" xmlUrl="https://fine.example.org/rss"/>
          <outline text="Folder">
            <outline text="Gopher" xmlUrl="gopher://old.example.org/1"/>
          </outline>
        </body></opml>
        """;

    ApiClient.Response r = importAs("text/x-opml", opml, tenant);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.errors()).containsExactly("outline 3: url: must be an absolute http or https URL");
    assertThat(count(tenant)).isZero();

    ApiClient.Response xxe =
        importAs(
            "application/xml",
            "<?xml version=\"1.0\"?><!DOCTYPE opml [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>"
                + "<opml><body><outline text=\"&x;\" xmlUrl=\"https://x.example.org/\"/></body></opml>",
            tenant);
    assertThat(xxe.status()).isEqualTo(400);
    assertThat(count(tenant)).isZero();
  }

  private long count(String tenantId) {
    return jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE tenant_id = ?")
        .param(tenantId)
        .query(Long.class)
        .single();
  }

  @Test
  void anOpmlWithHtmlEntitiesAndAnOverLongTitleIsImportedWithAWarning() {
    String opml =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="1.0"><head><title>Mes&nbsp;abonnements</title></head><body>
          <outline text="Caf&eacute; &amp; Cr&egrave;me" xmlUrl="https://cafe.example.org/rss"/>
          <outline text="%s" xmlUrl="https://long.example.org/rss"/>
        </body></opml>
        """
            .formatted("Long ".repeat(60));

    ApiClient.Response r = importAs("text/x-opml", opml, tenant);

    assertThat(r.status()).as(r.text()).isEqualTo(201);
    assertThat(r.json().get("created").intValue()).isEqualTo(2);
    assertThat(r.json().get("warnings").get(0).stringValue())
        .isEqualTo("outline 2: title of 299 characters truncated to the limit of 200");
    assertThat(
            jdbc.sql("SELECT name FROM scheduler.sources WHERE tenant_id = ? ORDER BY url")
                .param(tenant)
                .query(String.class)
                .list())
        .containsExactly("Caf\u00e9 & Cr\u00e8me", ("Long ".repeat(40)).strip());
  }
}
