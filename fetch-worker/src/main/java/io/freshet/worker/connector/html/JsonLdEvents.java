package io.freshet.worker.connector.html;

import io.freshet.worker.items.RawItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Evaluator;
import org.jsoup.select.QueryParser;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * schema.org {@code Event}s (and its subtypes: MusicEvent, BusinessEvent...) in a page's JSON-LD
 * scripts, top-level, in arrays or in an {@code @graph}. Unreadable scripts are skipped: pages
 * often carry broken JSON-LD beside good content.
 */
final class JsonLdEvents {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Parsed once: jsoup parses a selector given as a string on every call. */
  private static final Evaluator SCRIPTS = QueryParser.parse("script[type=application/ld+json]");

  List<RawItem> events(Document page) {
    List<RawItem> out = new ArrayList<>();
    for (Element script : page.select(SCRIPTS)) {
      try {
        collect(JSON.readTree(script.data()), page, out);
      } catch (JacksonException unreadable) {
        // skipped, see class comment
      }
    }
    return out;
  }

  private void collect(JsonNode node, Document page, List<RawItem> out) {
    if (node == null) {
      return;
    }
    if (node.isArray()) {
      node.forEach(n -> collect(n, page, out));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    if (node.has("@graph")) {
      collect(node.get("@graph"), page, out);
    }
    if (isEvent(node.get("@type"))) {
      String url = text(node, "url");
      String absolute = url == null ? null : resolve(page, url);
      Map<String, String> metadata = new HashMap<>();
      JsonNode location = node.get("location");
      if (location != null) {
        String name = location.isObject() ? text(location, "name") : location.asString();
        if (name != null) {
          metadata.put("location", name);
        }
      }
      String end = text(node, "endDate");
      if (end != null) {
        metadata.put("end", end);
      }
      out.add(
          new RawItem(
              text(node, "@id"),
              absolute,
              text(node, "name"),
              text(node, "description"),
              "text/plain",
              null,
              HtmlConnector.date(text(node, "startDate")),
              true,
              metadata));
    }
  }

  private static boolean isEvent(JsonNode type) {
    if (type == null) {
      return false;
    }
    if (type.isArray()) {
      for (JsonNode t : type) {
        if (isEvent(t)) {
          return true;
        }
      }
      return false;
    }
    String name = type.asString();
    return name.endsWith("Event") && !name.equals("EventSeries");
  }

  private static String resolve(Document page, String url) {
    try {
      return java.net.URI.create(page.location()).resolve(url.trim()).toString();
    } catch (IllegalArgumentException e) {
      return url;
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() || !v.isValueNode() ? null : v.asString();
  }
}
