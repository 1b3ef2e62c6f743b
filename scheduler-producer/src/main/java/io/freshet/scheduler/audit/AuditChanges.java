package io.freshet.scheduler.audit;

import io.freshet.scheduler.api.support.SecretRedactor;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an audit record says changed, with secrets redacted as the API shows them ({@link
 * SecretRedactor}: URLs' secret query values, secret config values): a source's state, a diff of
 * two states, a few named values. Credentials appear only as whether there are some and what
 * happened to them ({@code kept}, {@code replaced}, {@code removed}); a key's text never.
 */
public final class AuditChanges {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AuditChanges() {}

  /**
   * A source's user-set state, redacted: name, connector, url, category, priority, enabled, config
   * and has_credentials.
   */
  public static ObjectNode source(
      String name,
      String connector,
      String url,
      String category,
      int priority,
      boolean enabled,
      JsonNode config,
      boolean hasCredentials) {
    ObjectNode o = NODES.objectNode();
    o.put("name", name);
    o.put("connector", connector);
    o.put("url", SecretRedactor.redactUrl(url));
    o.put("category", category);
    o.put("priority", priority);
    o.put("enabled", enabled);
    o.set("config", config == null ? NODES.nullNode() : SecretRedactor.redact(config));
    o.put("has_credentials", hasCredentials);
    return o;
  }

  /** {@code {"<field>": {"from": …, "to": …}}} for every field whose value differs. */
  public static ObjectNode diff(ObjectNode before, ObjectNode after) {
    ObjectNode changed = NODES.objectNode();
    Set<String> fields = new LinkedHashSet<>(before.propertyNames());
    fields.addAll(after.propertyNames());
    for (String field : fields) {
      JsonNode from = before.get(field);
      JsonNode to = after.get(field);
      if (!Objects.equals(from, to)) {
        ObjectNode change = changed.putObject(field);
        change.set("from", from == null ? NODES.nullNode() : from);
        change.set("to", to == null ? NODES.nullNode() : to);
      }
    }
    return changed;
  }

  /** A single-field object, or an empty one to add to: {@code of().put(…)}. */
  public static ObjectNode of() {
    return NODES.objectNode();
  }

  /** {@code {"<name>": <state>}}. */
  public static ObjectNode wrap(String name, JsonNode state) {
    ObjectNode o = NODES.objectNode();
    o.set(name, state);
    return o;
  }
}
