package io.freshet.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.config.CadenceConfigParser;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.cadence.source.Category;
import io.freshet.scheduler.source.Connector;
import java.util.List;
import org.junit.jupiter.api.Test;

class SourceValidatorTest {

  private final SourceValidator validator =
      new SourceValidator(new CadenceConfigParser(CadenceDefaults.standard()));

  private SourceValidator.Checked validate(String json) {
    return validator.validate(Json.read(json), null, true);
  }

  @Test
  void aMinimalBodyGetsTheDefaults() {
    var checked =
        validate(
            """
            {"tenant_id": "acme", "name": "  Blog ", "connector": "feed",
             "url": "https://Example.org/feed.xml"}
            """);

    assertThat(checked.errors()).isEmpty();
    SourceInput in = checked.input();
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
  void everyBadFieldGetsItsOwnMessage() {
    var checked =
        validate(
            """
            {"tenant_id": "acme corp", "name": "", "connector": "rss", "url": "ftp://x",
             "category": "blogs", "priority": 1001, "enabled": "yes", "config": [],
             "colour": "red"}
            """);

    assertThat(checked.ok()).isFalse();
    assertThat(checked.errors())
        .hasSize(9)
        .anySatisfy(m -> assertThat(m).startsWith("colour: unknown field; allowed fields: "))
        .anySatisfy(m -> assertThat(m).startsWith("tenant_id: must be 1 to 100 characters"))
        .anySatisfy(m -> assertThat(m).startsWith("name: must be a non-blank string"))
        .anySatisfy(m -> assertThat(m).startsWith("connector: unknown connector \"rss\""))
        .contains("url: must be an absolute http or https URL")
        .anySatisfy(
            m ->
                assertThat(m)
                    .startsWith("category: unknown category \"blogs\"; allowed values: ")
                    .contains(Category.allowed()))
        .anySatisfy(m -> assertThat(m).startsWith("priority: must be a whole number between"))
        .anySatisfy(m -> assertThat(m).startsWith("enabled: must be true or false"))
        .contains("config: must be a JSON object");
  }

  @Test
  void requiredFieldsAreNamed() {
    var checked = validate("{}");

    assertThat(checked.errors())
        .extracting(m -> m.substring(0, m.indexOf(':')))
        .containsExactly("tenant_id", "name", "connector", "url");
  }

  @Test
  void cadenceErrorsAreReportedPerFieldUnderConfig() {
    var checked =
        validate(
            """
            {"tenant_id": "acme", "name": "n", "connector": "ical", "url": "https://x.org/c.ics",
             "config": {"cadence": {"mode": "interval", "every_minutes": 0, "every_hour": 1},
                        "retention_days": 0, "selector": ".item"}}
            """);

    assertThat(checked.errors())
        .hasSize(3)
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.every_minutes: "))
        .anySatisfy(m -> assertThat(m).startsWith("config.cadence.every_hour: unknown key"))
        .anySatisfy(m -> assertThat(m).startsWith("config.retention_days: must be a whole number"));
  }

  @Test
  void aValidCadenceAndConnectorOptionsPass() {
    var checked =
        validate(
            """
            {"tenant_id": "acme", "name": "n", "connector": "html", "url": "https://x.org/",
             "category": "Website", "priority": -1000, "enabled": false,
             "config": {"cadence": {"mode": "cron", "expression": "0 7 * * MON-FRI",
                                    "zone": "Europe/Paris"},
                        "retention_days": 30, "selector": ".event"},
             "credentials": {"cookie": "abc"}}
            """);

    assertThat(checked.errors()).isEmpty();
    assertThat(checked.input().category()).isEqualTo(Category.WEBSITE);
    assertThat(checked.input().hasCredentials()).isTrue();
  }

  @Test
  void theFallbackTenantFillsInAMissingTenantId() {
    var checked =
        validator.validate(
            Json.read("{\"name\": \"n\", \"connector\": \"feed\", \"url\": \"https://x.org/\"}"),
            "acme",
            true);

    assertThat(checked.input().tenantId()).isEqualTo("acme");
  }

  @Test
  void anUpdateNeedNotNameTheTenantAndNullCredentialsMeanRemove() {
    var checked =
        validator.validate(
            Json.read(
                """
                {"name": "n", "connector": "json", "url": "https://x.org/api",
                 "credentials": null}
                """),
            null,
            false);

    assertThat(checked.errors()).isEmpty();
    assertThat(checked.input().tenantId()).isNull();
    assertThat(checked.input().credentials().isNull()).isTrue();
    assertThat(checked.input().hasCredentials()).isFalse();
  }

  @Test
  void aBodyThatIsNotAnObjectIsOneError() {
    assertThat(validate("[1, 2]").errors()).isEqualTo(List.of("body: must be a JSON object"));
  }

  @Test
  void theNameAndUrlLimitsAreEnforced() {
    var checked =
        validate(
            "{\"tenant_id\": \"a\", \"name\": \""
                + "n".repeat(201)
                + "\", \"connector\": \"feed\", \"url\": \"https://x.org/"
                + "p".repeat(2040)
                + "\"}");

    assertThat(checked.errors())
        .containsExactly(
            "name: must be a non-blank string of at most 200 characters",
            "url: must be at most 2048 characters");
  }
}
