package io.freshet.cadence.config;

import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import io.freshet.cadence.budget.Objective;
import io.freshet.cadence.source.Category;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns {@code config_json.cadence} into a validated {@link CadenceSpec}.
 *
 * <p>Every problem is collected, not just the first: {@link InvalidCadenceException#errors()} names
 * each bad field (as {@code cadence.<key>}) with the allowed values. Unknown keys are errors too,
 * so that a typo ({@code every_minute}) is not silently ignored. A missing or null cadence yields
 * the deployment's default spec.
 */
public final class CadenceConfigParser {

  static final String PREFIX = "cadence.";
  static final long MAX_MINUTES = 366L * 24 * 60;

  private static final JsonMapper MAPPER = JsonMapper.builder().build();

  /** The modes' JSON names in the order documentation lists them ({@link Mode}). */
  public static final List<String> MODES = Mode.jsonNames();

  private final CadenceDefaults defaults;
  private final java.time.Clock clock;

  /** A parser that judges "does this cron expression ever fire again?" on the system clock. */
  public CadenceConfigParser(CadenceDefaults defaults) {
    this(defaults, java.time.Clock.systemUTC());
  }

  /**
   * @param clock the present, for the one rule that needs it: a cron expression must fire again
   */
  public CadenceConfigParser(CadenceDefaults defaults, java.time.Clock clock) {
    this.defaults = Objects.requireNonNull(defaults, "defaults");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Parses the JSON text of the {@code cadence} object; null or blank gives the default. */
  public CadenceSpec parse(String cadenceJson) {
    if (cadenceJson == null || cadenceJson.isBlank()) {
      return defaults.defaultSpec();
    }
    return parse(readTree(cadenceJson, "cadence"));
  }

  /** Parses a whole {@code config_json} text and reads its {@code cadence} field. */
  public CadenceSpec parseConfigJson(String configJson) {
    if (configJson == null || configJson.isBlank()) {
      return defaults.defaultSpec();
    }
    JsonNode root = readTree(configJson, "config_json");
    if (!root.isObject()) {
      throw new InvalidCadenceException("config_json", "must be a JSON object");
    }
    return parse(root.get("cadence"));
  }

  /** Parses the {@code cadence} node; null, missing or JSON null gives the default. */
  public CadenceSpec parse(JsonNode cadence) {
    if (cadence == null || cadence.isNull() || cadence.isMissingNode()) {
      return defaults.defaultSpec();
    }
    if (!cadence.isObject()) {
      throw new InvalidCadenceException(
          "cadence",
          "must be a JSON object such as {\"mode\": \"interval\", \"every_minutes\": 60}");
    }
    JsonNode modeNode = cadence.get("mode");
    String allowedModes = String.join(", ", MODES);
    if (modeNode == null || modeNode.isNull()) {
      throw new InvalidCadenceException(
          PREFIX + "mode", "is required; allowed values: " + allowedModes);
    }
    String modeName = modeNode.isString() ? modeNode.stringValue() : modeNode.toString();
    Mode mode = Mode.ofJsonName(modeName).orElse(null);
    if (mode == null) {
      throw new InvalidCadenceException(
          PREFIX + "mode", "unknown mode '" + modeName + "'; allowed values: " + allowedModes);
    }
    Fields f = new Fields(cadence);
    for (String name : cadence.propertyNames()) {
      if (!name.equals("mode") && !mode.keys().contains(name)) {
        Set<String> allowed = new LinkedHashSet<>(List.of("mode"));
        allowed.addAll(mode.keys().stream().sorted().toList());
        f.error(
            name,
            "unknown key for mode "
                + mode.jsonName()
                + "; allowed keys: "
                + String.join(", ", allowed));
      }
    }
    CadenceSpec spec = build(mode, f);
    f.throwIfAny();
    return spec;
  }

  private CadenceSpec build(Mode mode, Fields f) {
    return switch (mode) {
      case ALWAYS -> new CadenceSpec.Always();
      case INTERVAL -> {
        Duration every = f.minutes("every_minutes", null);
        yield every == null ? null : new CadenceSpec.Interval(every);
      }
      case CRON -> cron(f);
      case FEED_FREQUENCY ->
          new CadenceSpec.FeedFrequency(
              orElse(
                  f.minutes("default_minutes", defaults.feedDefaultInterval()),
                  Duration.ofHours(1)));
      case SIGNAL_ADAPTIVE ->
          new CadenceSpec.SignalAdaptive(
              f.category(),
              f.optionalMinutes("floor_minutes"),
              f.count("cold_start_fetches", defaults.coldStartFetches()));
      case ADAPTIVE -> adaptive(f);
    };
  }

  private CadenceSpec cron(Fields f) {
    String expression = f.text("expression", null);
    if (expression == null) {
      f.error("expression", "is required for mode cron, e.g. \"0 7 * * MON-FRI\"");
    }
    ZoneId zone = ZoneId.of("UTC");
    String zoneText = f.text("zone", "UTC");
    try {
      zone = ZoneId.of(zoneText);
    } catch (DateTimeException e) {
      f.error(
          "zone",
          "unknown time zone '" + zoneText + "'; use an IANA id such as Europe/Paris or UTC");
    }
    String flavorText = f.text("flavor", "unix");
    CronFlavor flavor = CronFlavor.parse(flavorText).orElse(null);
    if (flavor == null) {
      f.error(
          "flavor",
          "unknown cron flavor '" + flavorText + "'; allowed values: " + CronFlavor.allowed());
      flavor = CronFlavor.UNIX;
    }
    if (expression == null) {
      return null;
    }
    try {
      var cron =
          new CronParser(CronDefinitionBuilder.instanceDefinitionFor(flavor.cronType()))
              .parse(expression)
              .validate();
      // An expression that never fires (e.g. 0 0 31 2 *) would leave the source never due.
      if (com.cronutils.model.time.ExecutionTime.forCron(cron)
          .nextExecution(java.time.ZonedDateTime.now(clock.withZone(zone)))
          .isEmpty()) {
        f.error("expression", "'" + expression + "' never fires (no such date)");
        return null;
      }
    } catch (IllegalArgumentException e) {
      f.error(
          "expression",
          "'"
              + expression
              + "' is not a valid "
              + flavor.wireName()
              + " cron expression ("
              + (flavor == CronFlavor.UNIX
                  ? "minute hour day-of-month month day-of-week"
                  : "second minute hour day-of-month month day-of-week")
              + "): "
              + e.getMessage());
      return null;
    }
    return new CadenceSpec.Cron(expression, zone, flavor);
  }

  private CadenceSpec adaptive(Fields f) {
    CadenceSpec.Adaptive d = CadenceDefaults.adaptive(null);
    Category category = f.category();
    Duration min = orElse(f.minutes("min_minutes", d.min()), d.min());
    Duration max = orElse(f.minutes("max_minutes", d.max()), d.max());
    Duration reference = orElse(f.minutes("reference_minutes", d.reference()), d.reference());
    int windowDays = f.count("window_days", (int) d.window().toDays());
    if (windowDays < 1) {
      f.error("window_days", "must be a whole number of days ≥ 1, was " + windowDays);
      windowDays = (int) d.window().toDays();
    }
    Objective objective = d.objective();
    String objectiveText = f.text("objective", d.objective().wireName());
    if (Objective.parse(objectiveText).isEmpty()) {
      f.error(
          "objective",
          "unknown objective '" + objectiveText + "'; allowed values: " + Objective.allowed());
    } else {
      objective = Objective.parse(objectiveText).orElseThrow();
    }
    boolean importance = f.bool("importance", d.importance());
    if (max.compareTo(min) < 0) {
      f.error(
          "max_minutes", "must be ≥ min_minutes (" + min.toMinutes() + "), was " + max.toMinutes());
      max = min;
    }
    return new CadenceSpec.Adaptive(
        category, min, max, reference, Duration.ofDays(windowDays), objective, importance);
  }

  private static Duration orElse(Duration d, Duration fallback) {
    return d == null ? fallback : d;
  }

  private static JsonNode readTree(String json, String field) {
    try {
      return MAPPER.readTree(json);
    } catch (JacksonException e) {
      throw new InvalidCadenceException(field, "is not valid JSON: " + e.getOriginalMessage());
    }
  }

  /** Typed access to the cadence object's fields that records every problem. */
  private static final class Fields {
    private final JsonNode node;
    private final List<FieldError> errors = new ArrayList<>();

    Fields(JsonNode node) {
      this.node = node;
    }

    void error(String key, String message) {
      errors.add(new FieldError(PREFIX + key, message));
    }

    void throwIfAny() {
      if (!errors.isEmpty()) {
        throw new InvalidCadenceException(errors);
      }
    }

    /** A whole number of minutes in [1, 366 days]; {@code fallback} when absent. */
    Duration minutes(String key, Duration fallback) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        if (fallback == null) {
          error(key, "is required: a whole number of minutes ≥ 1");
        }
        return fallback;
      }
      if (!v.isIntegralNumber() || !v.canConvertToLong()) {
        error(key, "must be a whole number of minutes ≥ 1, was " + v);
        return null;
      }
      long m = v.longValue();
      if (m < 1 || m > MAX_MINUTES) {
        error(key, "must be a whole number of minutes between 1 and " + MAX_MINUTES + ", was " + m);
        return null;
      }
      return Duration.ofMinutes(m);
    }

    /** Like {@link #minutes} but null, without error, when absent. */
    Duration optionalMinutes(String key) {
      JsonNode v = node.get(key);
      return v == null || v.isNull() ? null : minutes(key, null);
    }

    int count(String key, int fallback) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return fallback;
      }
      if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0) {
        error(key, "must be a whole number ≥ 0, was " + v);
        return fallback;
      }
      return v.intValue();
    }

    String text(String key, String fallback) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return fallback;
      }
      if (!v.isString()) {
        error(key, "must be a string, was " + v);
        return fallback;
      }
      return v.stringValue();
    }

    boolean bool(String key, boolean fallback) {
      JsonNode v = node.get(key);
      if (v == null || v.isNull()) {
        return fallback;
      }
      if (!v.isBoolean()) {
        error(key, "must be true or false, was " + v);
        return fallback;
      }
      return v.booleanValue();
    }

    Category category() {
      String text = text("category", null);
      if (text == null) {
        return null;
      }
      return Category.parse(text)
          .orElseGet(
              () -> {
                error(
                    "category",
                    "unknown category '" + text + "'; allowed values: " + Category.allowed());
                return null;
              });
    }
  }
}
