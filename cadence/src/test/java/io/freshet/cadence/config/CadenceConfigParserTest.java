package io.freshet.cadence.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.freshet.cadence.budget.Objective;
import io.freshet.cadence.source.Category;
import java.time.Duration;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class CadenceConfigParserTest {

  private final CadenceConfigParser parser = new CadenceConfigParser(CadenceDefaults.standard());

  @Test
  void missingCadenceGivesTheDeploymentDefault() {
    assertThat(parser.parse((String) null)).isEqualTo(CadenceDefaults.adaptive(null));
    assertThat(parser.parseConfigJson("{\"url\": \"x\"}"))
        .isEqualTo(CadenceDefaults.adaptive(null));
    assertThat(parser.parseConfigJson("{\"cadence\": null}"))
        .isEqualTo(CadenceDefaults.adaptive(null));
  }

  @Test
  void aDeploymentCanKeepAdr0009sAlwaysDueDefault() {
    var adr =
        new CadenceConfigParser(
            CadenceDefaults.standard().withDefaultSpec(new CadenceSpec.Always()));
    assertThat(adr.parseConfigJson("{}")).isEqualTo(new CadenceSpec.Always());
  }

  @Test
  void parsesTheAdrExample() {
    assertThat(
            parser.parseConfigJson(
                "{\"cadence\": {\"mode\": \"interval\", \"every_minutes\": 480}}"))
        .isEqualTo(new CadenceSpec.Interval(Duration.ofMinutes(480)));
  }

  @Test
  void parsesEveryMode() {
    assertThat(parser.parse("{\"mode\":\"always\"}")).isEqualTo(new CadenceSpec.Always());
    assertThat(
            parser.parse(
                "{\"mode\":\"cron\",\"expression\":\"0 7 * * MON-FRI\",\"zone\":\"Europe/Paris\"}"))
        .isEqualTo(
            new CadenceSpec.Cron("0 7 * * MON-FRI", ZoneId.of("Europe/Paris"), CronFlavor.UNIX));
    assertThat(
            parser.parse(
                "{\"mode\":\"cron\",\"expression\":\"0 0 7 ? * MON-FRI\",\"flavor\":\"quartz\"}"))
        .isEqualTo(new CadenceSpec.Cron("0 0 7 ? * MON-FRI", ZoneId.of("UTC"), CronFlavor.QUARTZ));
    assertThat(parser.parse("{\"mode\":\"feed_frequency\"}"))
        .isEqualTo(new CadenceSpec.FeedFrequency(Duration.ofMinutes(60)));
    assertThat(parser.parse("{\"mode\":\"feed_frequency\",\"default_minutes\":90}"))
        .isEqualTo(new CadenceSpec.FeedFrequency(Duration.ofMinutes(90)));
    assertThat(parser.parse("{\"mode\":\"signal_adaptive\"}"))
        .isEqualTo(new CadenceSpec.SignalAdaptive(null, null, 3));
    assertThat(
            parser.parse(
                "{\"mode\":\"signal_adaptive\",\"category\":\"social\",\"floor_minutes\":120,\"cold_start_fetches\":5}"))
        .isEqualTo(new CadenceSpec.SignalAdaptive(Category.SOCIAL, Duration.ofMinutes(120), 5));
    assertThat(parser.parse("{\"mode\":\"adaptive\"}")).isEqualTo(CadenceDefaults.adaptive(null));
    assertThat(
            parser.parse(
                "{\"mode\":\"adaptive\",\"category\":\"calendar\",\"min_minutes\":10,\"max_minutes\":2880,"
                    + "\"reference_minutes\":30,\"window_days\":7,\"objective\":\"harmonic\",\"importance\":false}"))
        .isEqualTo(
            new CadenceSpec.Adaptive(
                Category.CALENDAR,
                Duration.ofMinutes(10),
                Duration.ofMinutes(2880),
                Duration.ofMinutes(30),
                Duration.ofDays(7),
                Objective.HARMONIC,
                false));
  }

  @Test
  void unknownModeNamesTheFieldAndTheAllowedValues() {
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"sometimes\"}"))
        .isInstanceOf(InvalidCadenceException.class)
        .hasMessage(
            "cadence.mode: unknown mode 'sometimes'; allowed values: always, interval, cron, feed_frequency, signal_adaptive, adaptive");
  }

  @Test
  void missingModeIsAnError() {
    assertThatThrownBy(() -> parser.parse("{\"every_minutes\": 5}"))
        .hasMessageStartingWith("cadence.mode: is required; allowed values: always, interval");
  }

  @Test
  void nonObjectCadenceIsAnError() {
    assertThatThrownBy(() -> parser.parse("\"hourly\""))
        .hasMessageStartingWith("cadence: must be a JSON object");
    assertThatThrownBy(() -> parser.parse("{not json"))
        .hasMessageStartingWith("cadence: is not valid JSON");
  }

  @Test
  void zeroOrNegativeMinutesAreRejectedWithTheRange() {
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"interval\",\"every_minutes\":0}"))
        .hasMessage(
            "cadence.every_minutes: must be a whole number of minutes between 1 and 527040, was 0");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"interval\",\"every_minutes\":-5}"))
        .hasMessage(
            "cadence.every_minutes: must be a whole number of minutes between 1 and 527040, was -5");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"interval\",\"every_minutes\":1.5}"))
        .hasMessage("cadence.every_minutes: must be a whole number of minutes ≥ 1, was 1.5");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"interval\",\"every_minutes\":\"60\"}"))
        .hasMessage("cadence.every_minutes: must be a whole number of minutes ≥ 1, was \"60\"");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"interval\"}"))
        .hasMessage("cadence.every_minutes: is required: a whole number of minutes ≥ 1");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"feed_frequency\",\"default_minutes\":-1}"))
        .hasMessageStartingWith(
            "cadence.default_minutes: must be a whole number of minutes between 1");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"signal_adaptive\",\"floor_minutes\":0}"))
        .hasMessageStartingWith(
            "cadence.floor_minutes: must be a whole number of minutes between 1");
  }

  @Test
  void unparsableCronNamesTheExpressionAndTheFormat() {
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"cron\",\"expression\":\"every day at 7\"}"))
        .hasMessageStartingWith(
            "cadence.expression: 'every day at 7' is not a valid unix cron expression (minute hour day-of-month month day-of-week)");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"cron\",\"expression\":\"61 * * * *\"}"))
        .hasMessageStartingWith(
            "cadence.expression: '61 * * * *' is not a valid unix cron expression");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"cron\"}"))
        .hasMessageStartingWith("cadence.expression: is required for mode cron");
  }

  @Test
  void aCronExpressionThatNeverFiresIsAnError() {
    // 31 February used to be accepted, and the source was then never due again.
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"cron\",\"expression\":\"0 0 31 2 *\"}"))
        .hasMessageStartingWith("cadence.expression: '0 0 31 2 *' never fires");
  }

  @Test
  void unknownZoneAndFlavorAreErrors() {
    assertThatThrownBy(
            () ->
                parser.parse(
                    "{\"mode\":\"cron\",\"expression\":\"0 7 * * *\",\"zone\":\"Mars/Olympus\"}"))
        .hasMessage(
            "cadence.zone: unknown time zone 'Mars/Olympus'; use an IANA id such as Europe/Paris or UTC");
    assertThatThrownBy(
            () ->
                parser.parse(
                    "{\"mode\":\"cron\",\"expression\":\"0 7 * * *\",\"flavor\":\"vixie\"}"))
        .hasMessage(
            "cadence.flavor: unknown cron flavor 'vixie'; allowed values: unix, quartz, spring");
  }

  @Test
  void unknownCategoryListsTheCategories() {
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"signal_adaptive\",\"category\":\"forum\"}"))
        .hasMessage(
            "cadence.category: unknown category 'forum'; allowed values: social, search, website, institutional, rss, calendar, api");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"adaptive\",\"category\":\"forum\"}"))
        .hasMessageStartingWith("cadence.category: unknown category 'forum'");
  }

  @Test
  void badAdaptiveKeysAreErrors() {
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"adaptive\",\"objective\":\"freshness\"}"))
        .hasMessage(
            "cadence.objective: unknown objective 'freshness'; allowed values: delay, harmonic");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"adaptive\",\"importance\":\"yes\"}"))
        .hasMessage("cadence.importance: must be true or false, was \"yes\"");
    assertThatThrownBy(() -> parser.parse("{\"mode\":\"adaptive\",\"window_days\":0}"))
        .hasMessage("cadence.window_days: must be a whole number of days ≥ 1, was 0");
    assertThatThrownBy(
            () -> parser.parse("{\"mode\":\"adaptive\",\"min_minutes\":60,\"max_minutes\":30}"))
        .hasMessage("cadence.max_minutes: must be ≥ min_minutes (60), was 30");
    assertThatThrownBy(
            () -> parser.parse("{\"mode\":\"signal_adaptive\",\"cold_start_fetches\":-1}"))
        .hasMessage("cadence.cold_start_fetches: must be a whole number ≥ 0, was -1");
  }

  @Test
  void unknownKeysAreErrorsListingTheAllowedKeys() {
    assertThatThrownBy(
            () -> parser.parse("{\"mode\":\"interval\",\"every_minute\":5,\"every_minutes\":5}"))
        .hasMessage(
            "cadence.every_minute: unknown key for mode interval; allowed keys: mode, every_minutes");
  }

  @Test
  void everyBadFieldIsReportedSeparately() {
    InvalidCadenceException e =
        catchThrowableOfType(
            InvalidCadenceException.class,
            () ->
                parser.parse(
                    "{\"mode\":\"cron\",\"expression\":\"nope\",\"zone\":\"Nowhere\",\"colour\":1}"));
    assertThat(e.errors())
        .extracting(FieldError::field)
        .containsExactlyInAnyOrder("cadence.colour", "cadence.zone", "cadence.expression");
  }
}
