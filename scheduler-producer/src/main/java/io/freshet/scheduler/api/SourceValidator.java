package io.freshet.scheduler.api;

import io.freshet.cadence.config.CadenceConfigParser;
import io.freshet.cadence.config.FieldError;
import io.freshet.cadence.config.InvalidCadenceException;
import io.freshet.cadence.source.Category;
import io.freshet.scheduler.source.Connector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Checks a source request body and reports every bad field, each as {@code "<field>: <what is wrong
 * and what is allowed>"}. Pure: no database (whether the tenant exists is checked by the caller).
 */
final class SourceValidator {

  static final int MAX_NAME = 200;
  static final int MAX_PRIORITY = 1000;
  static final Pattern TENANT_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  static final String TENANT_RULE = "must be 1 to 100 characters of A-Z a-z 0-9 . _ -";

  private static final List<String> FIELDS =
      List.of(
          "tenant_id",
          "name",
          "connector",
          "url",
          "category",
          "priority",
          "enabled",
          "config",
          "credentials");
  private static final Set<String> KNOWN = Set.copyOf(FIELDS);

  private final CadenceConfigParser cadence;

  SourceValidator(CadenceConfigParser cadence) {
    this.cadence = cadence;
  }

  /** The outcome: the input when {@code errors} is empty. */
  record Checked(SourceInput input, List<String> errors) {
    boolean ok() {
      return errors.isEmpty();
    }
  }

  /**
   * @param fallbackTenant the tenant of a body without {@code tenant_id} (an import's query
   *     parameter), or null
   * @param tenantRequired whether a body without {@code tenant_id} and without fallback is an error
   *     (create), or leaves the tenant unset (update)
   */
  Checked validate(JsonNode body, String fallbackTenant, boolean tenantRequired) {
    List<String> errors = new ArrayList<>();
    if (body == null || !body.isObject()) {
      errors.add("body: must be a JSON object");
      return new Checked(null, errors);
    }
    for (String name : body.propertyNames()) {
      if (!KNOWN.contains(name)) {
        errors.add(name + ": unknown field; allowed fields: " + String.join(", ", FIELDS));
      }
    }
    String tenant = tenant(body.get("tenant_id"), fallbackTenant, tenantRequired, errors);
    String name = name(body.get("name"), errors);
    Connector connector = connector(body.get("connector"), errors);
    String url = null;
    String host = null;
    JsonNode urlNode = body.get("url");
    if (absent(urlNode)) {
      errors.add("url: is required: an absolute http or https URL");
    } else if (!urlNode.isString()) {
      errors.add("url: must be a string: an absolute http or https URL");
    } else {
      url = urlNode.stringValue().strip();
      try {
        host = SourceUrls.host(url);
      } catch (IllegalArgumentException e) {
        errors.add("url: " + e.getMessage());
      }
    }
    Category category = category(body.get("category"), errors);
    int priority = priority(body.get("priority"), errors);
    boolean enabled = enabled(body.get("enabled"), errors);
    JsonNode config = config(body.get("config"), errors);
    JsonNode credentials = body.get("credentials");
    // GET-then-PUT must not store the mask the API shows in place of a secret
    errors.addAll(SecretRedactor.maskedFields(url, config));
    if (!errors.isEmpty()) {
      return new Checked(null, errors);
    }
    return new Checked(
        new SourceInput(
            tenant, name, connector, url, host, category, priority, enabled, config, credentials),
        errors);
  }

  /** Checks a tenant id as the {@code field} names it; empty when valid. */
  static Optional<String> checkTenantId(String field, JsonNode value) {
    if (absent(value)) {
      return Optional.of(field + ": is required; " + TENANT_RULE);
    }
    if (!value.isString() || !TENANT_ID.matcher(value.stringValue()).matches()) {
      return Optional.of(field + ": " + TENANT_RULE);
    }
    return Optional.empty();
  }

  private static String tenant(
      JsonNode value, String fallback, boolean required, List<String> errors) {
    if (absent(value)) {
      if (fallback == null && required) {
        errors.add("tenant_id: is required; " + TENANT_RULE);
      }
      return fallback;
    }
    checkTenantId("tenant_id", value).ifPresent(errors::add);
    return value.isString() ? value.stringValue() : null;
  }

  private static String name(JsonNode value, List<String> errors) {
    String rule = "must be a non-blank string of at most " + MAX_NAME + " characters";
    if (absent(value)) {
      errors.add("name: is required; " + rule);
      return null;
    }
    if (!value.isString()
        || value.stringValue().isBlank()
        || value.stringValue().strip().length() > MAX_NAME) {
      errors.add("name: " + rule);
      return null;
    }
    return value.stringValue().strip();
  }

  private static Connector connector(JsonNode value, List<String> errors) {
    if (absent(value)) {
      errors.add("connector: is required; allowed values: " + Connector.allowed());
      return null;
    }
    Optional<Connector> connector =
        value.isString()
            ? Connector.parse(value.stringValue().strip().toLowerCase(java.util.Locale.ROOT))
            : Optional.empty();
    if (connector.isEmpty()) {
      errors.add(
          "connector: unknown connector " + value + "; allowed values: " + Connector.allowed());
      return null;
    }
    return connector.get();
  }

  private static Category category(JsonNode value, List<String> errors) {
    if (absent(value)) {
      return null;
    }
    Optional<Category> category =
        value.isString() ? Category.parse(value.stringValue()) : Optional.empty();
    if (category.isEmpty()) {
      errors.add("category: unknown category " + value + "; allowed values: " + Category.allowed());
      return null;
    }
    return category.get();
  }

  private static int priority(JsonNode value, List<String> errors) {
    if (absent(value)) {
      return 0;
    }
    if (!value.isIntegralNumber()
        || !value.canConvertToInt()
        || Math.abs(value.intValue()) > MAX_PRIORITY) {
      errors.add(
          "priority: must be a whole number between -"
              + MAX_PRIORITY
              + " and "
              + MAX_PRIORITY
              + ", was "
              + value);
      return 0;
    }
    return value.intValue();
  }

  private static boolean enabled(JsonNode value, List<String> errors) {
    if (absent(value)) {
      return true;
    }
    if (!value.isBoolean()) {
      errors.add("enabled: must be true or false, was " + value);
      return true;
    }
    return value.booleanValue();
  }

  private JsonNode config(JsonNode value, List<String> errors) {
    if (absent(value)) {
      return Json.MAPPER.createObjectNode();
    }
    if (!value.isObject()) {
      errors.add("config: must be a JSON object");
      return null;
    }
    try {
      cadence.parse(value.get("cadence"));
    } catch (InvalidCadenceException e) {
      for (FieldError error : e.errors()) {
        errors.add("config." + error.field() + ": " + error.message());
      }
    }
    JsonNode retention = value.get("retention_days");
    if (retention != null
        && !retention.isNull()
        && (!retention.isIntegralNumber()
            || !retention.canConvertToInt()
            || retention.intValue() < 1)) {
      errors.add("config.retention_days: must be a whole number of days ≥ 1, was " + retention);
    }
    return value;
  }

  private static boolean absent(JsonNode value) {
    return value == null || value.isNull() || value.isMissingNode();
  }
}
