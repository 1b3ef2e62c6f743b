package io.freshet.scheduler.api.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.source.Category;
import io.freshet.scheduler.api.ApiTesting;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.Connector;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a source request is bound and checked: the messages clients get, without a server. */
class SourceRequestTest {

  private final RequestBinder binder = ApiTesting.binder();

  private RequestBinder.Bound<SourceRequest> bind(String json) {
    return binder.bind(
        ApiTesting.json().mapper().readTree(json), SourceRequest.class, SourceRequest.Create.class);
  }

  @Test
  void aMinimalBodyGetsTheDefaults() {
    var bound =
        bind(
            """
            {"tenant_id": "acme", "name": "  Blog ", "connector": "FEED",
             "url": "https://Example.org/feed.xml"}
            """);

    assertThat(bound.problems()).isEmpty();
    SourceInput in = SourceInput.of(bound.value());
    assertThat(in.name()).isEqualTo("Blog");
    assertThat(in.connector()).isEqualTo(Connector.FEED);
    assertThat(in.host()).isEqualTo("example.org");
    assertThat(in.priority()).isZero();
    assertThat(in.enabled()).isTrue();
    assertThat(in.category()).isNull();
    assertThat(in.config().isObject()).isTrue();
    assertThat(in.credentials()).isNull();
  }

  @Test
  void everyInvalidValueGetsItsOwnMessageInTheOrderOfTheFields() {
    var bound =
        bind(
            """
            {"tenant_id": "acme corp", "name": "", "connector": "rss", "url": "ftp://x",
             "category": "blogs", "priority": 1001, "enabled": false, "config": []}
            """);

    assertThat(bound.problems())
        .containsExactly(
            "tenant_id: must be 1 to 100 characters of A-Z a-z 0-9 . _ -",
            "name: must be a non-blank string of at most 200 characters",
            "connector: unknown connector \"rss\"; allowed values: feed, ical, json, html",
            "url: must be an absolute http or https URL",
            "category: unknown category \"blogs\"; allowed values: "
                + WireNames.allowed(Category.class),
            "priority: must be a whole number between -1000 and 1000",
            "config: must be a JSON object");
  }

  @Test
  void aValueOfTheWrongTypeOrAnUnknownFieldIsNamed() {
    assertThat(bind("{\"enabled\": \"yes\"}").problems())
        .containsExactly("enabled: must be true or false");
    assertThat(bind("{\"priority\": 1.5}").problems())
        .containsExactly("priority: must be a whole number");
    assertThat(bind("{\"name\": 42}").problems()).containsExactly("name: must be a string");
    assertThat(bind("{\"colour\": \"red\"}").problems())
        .singleElement()
        .asString()
        .startsWith("colour: unknown field; allowed fields: ")
        .contains("tenant_id");
    assertThat(bind("[1, 2]").problems()).isEqualTo(List.of("body: must be a JSON object"));
  }

  @Test
  void requiredFieldsAreNamed() {
    assertThat(bind("{}").problems())
        .extracting(m -> m.substring(0, m.indexOf(':')))
        .containsExactly("tenant_id", "name", "connector", "url");
  }

  @Test
  void cadenceErrorsAreReportedPerFieldUnderConfig() {
    var bound =
        bind(
            """
            {"tenant_id": "acme", "name": "n", "connector": "ical", "url": "https://x.org/c.ics",
             "config": {"cadence": {"mode": "interval", "every_minutes": 0, "every_hour": 1},
                        "retention_days": 0, "selector": ".item"}}
            """);

    assertThat(bound.problems())
        .hasSize(3)
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.every_minutes: "))
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.every_hour: unknown key"))
        .anySatisfy(m -> assertThat(m).startsWith("config.retention_days: must be a whole number"));
  }

  @Test
  void aMessageQuotesWhatWasSentWithoutInterpretingIt() {
    var bound =
        bind(
            """
            {"tenant_id": "acme", "name": "n", "connector": "${1+1}{jakarta.validation.constraints.NotNull.message}",
             "url": "https://x.org/"}
            """);

    assertThat(bound.problems())
        .containsExactly(
            "connector: unknown connector \"${1+1}{jakarta.validation.constraints.NotNull.message}\";"
                + " allowed values: feed, ical, json, html");
  }

  @Test
  void aValidCadenceAndConnectorOptionsPass() {
    var bound =
        bind(
            """
            {"tenant_id": "acme", "name": "n", "connector": "html", "url": "https://x.org/",
             "category": "Website", "priority": -1000, "enabled": false,
             "config": {"cadence": {"mode": "cron", "expression": "0 7 * * MON-FRI",
                                    "zone": "Europe/Paris"},
                        "retention_days": 30, "selector": ".event"},
             "credentials": {"headers": {"Cookie": "abc"}}}
            """);

    assertThat(bound.problems()).isEmpty();
    SourceInput in = SourceInput.of(bound.value());
    assertThat(in.category()).isEqualTo(Category.WEBSITE);
    assertThat(in.hasCredentials()).isTrue();
    assertThat(in.enabled()).isFalse();
  }

  @Test
  void credentialsInAShapeTheWorkerCannotSendAreRefusedNamingTheFieldNotTheValue() {
    String base =
        "{\"tenant_id\": \"acme\", \"name\": \"n\", \"connector\": \"json\","
            + " \"url\": \"https://x.org/\", \"credentials\": %s}";

    assertThat(bind(base.formatted("{\"type\": \"bearer\", \"token\": \"s3cret\"}")).problems())
        .containsExactlyInAnyOrder(
            "credentials.type: is not a credential kind; use bearer, headers or query",
            "credentials.token: is not a credential kind; use bearer, headers or query");
    assertThat(bind(base.formatted("{\"bearer\": 42}")).problems())
        .containsExactly("credentials.bearer: must be a non-blank string");
    assertThat(bind(base.formatted("{\"headers\": {\"X-Key\": 7}}")).problems())
        .containsExactly("credentials.headers.X-Key: must be a string");
    assertThat(bind(base.formatted("\"s3cret\"")).problems())
        .singleElement()
        .asString()
        .startsWith("credentials: must be a JSON object")
        .doesNotContain("s3cret");
    assertThat(bind(base.formatted("{\"bearer\": \"t\", \"query\": {\"k\": \"v\"}}")).problems())
        .isEmpty();
  }

  @Test
  void theMaskInPlaceOfASecretIsRefused() {
    var bound =
        bind(
            """
            {"tenant_id": "acme", "name": "n", "connector": "json",
             "url": "https://x.org/api?api_key=***", "config": {"headers": {"Cookie": "***"}}}
            """);

    assertThat(bound.problems())
        .containsExactly(
            "url: query parameter api_key is the redaction mask ***; send the real value, or"
                + " better put the secret in credentials",
            "config.headers.Cookie: is the redaction mask ***; send the real value, or better put"
                + " the secret in credentials");
  }

  @Test
  void theNameAndUrlLimitsAreEnforced() {
    var bound =
        bind(
            "{\"tenant_id\": \"a\", \"name\": \""
                + "n".repeat(201)
                + "\", \"connector\": \"feed\", \"url\": \"https://x.org/"
                + "p".repeat(2040)
                + "\"}");

    assertThat(bound.problems())
        .containsExactly(
            "name: must be a non-blank string of at most 200 characters",
            "url: must be at most 2048 characters");
  }
}
