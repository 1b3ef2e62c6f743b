package io.freshet.worker.connector.json;

import io.freshet.worker.budget.WorkBudget;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.Text;
import io.freshet.worker.items.WebDates;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * How a JSON API's answer maps to items, from the source's config. JSON pointers (RFC 6901): {@code
 * items_pointer} (the array of items; default: the root if it is an array, else {@code /items}),
 * and within an item {@code id_pointer} (/id), {@code title_pointer} (/title), {@code body_pointer}
 * (/body), {@code url_pointer} (/url), {@code published_pointer} (/published_at), {@code
 * event_pointer} (none). Dates are ISO-8601 or epoch seconds (Slack's "1700000000.0001").
 */
record JsonMapping(
    String itemsPointer,
    String idPointer,
    String titlePointer,
    String bodyPointer,
    String urlPointer,
    String publishedPointer,
    String eventPointer,
    Mode mode,
    String sinceParam,
    String sinceFormat,
    String syncTokenParam,
    String syncTokenPointer,
    String nextPagePointer,
    String pageParam,
    int maxPages) {

  /** The most pages one fetch follows ({@code max_pages} may not be set higher). */
  public static final int MAX_PAGES = 100;

  /**
   * Items mapped per page; later ones are not (far above any item limit: mapping them would only
   * make garbage).
   */
  static final int MAX_ITEMS = 10_000;

  enum Mode {
    NONE,
    SINCE,
    SYNC_TOKEN
  }

  static JsonMapping from(Map<String, String> config) {
    Mode mode =
        switch (config.getOrDefault("cursor_mode", "none")) {
          case "none" -> Mode.NONE;
          case "since" -> Mode.SINCE;
          case "sync_token" -> Mode.SYNC_TOKEN;
          default ->
              throw new IllegalArgumentException(
                  "config.cursor_mode must be none, since or sync_token, was '"
                      + config.get("cursor_mode")
                      + "'");
        };
    String sinceFormat = config.getOrDefault("since_format", "iso");
    if (!List.of("iso", "epoch_seconds", "epoch_millis").contains(sinceFormat)) {
      throw new IllegalArgumentException(
          "config.since_format must be iso, epoch_seconds or epoch_millis");
    }
    int maxPages;
    try {
      maxPages = Integer.parseInt(config.getOrDefault("max_pages", "10").trim());
    } catch (NumberFormatException e) {
      maxPages = 0;
    }
    if (maxPages < 1 || maxPages > MAX_PAGES) {
      throw new IllegalArgumentException(
          "config.max_pages must be a whole number from 1 to "
              + MAX_PAGES
              + ", was '"
              + config.get("max_pages")
              + "'");
    }
    JsonMapping m =
        new JsonMapping(
            pointer(config, "items_pointer", null),
            pointer(config, "id_pointer", "/id"),
            pointer(config, "title_pointer", "/title"),
            pointer(config, "body_pointer", "/body"),
            pointer(config, "url_pointer", "/url"),
            pointer(config, "published_pointer", "/published_at"),
            pointer(config, "event_pointer", null),
            mode,
            config.getOrDefault("since_param", "since"),
            sinceFormat,
            config.getOrDefault("sync_token_param", "sync_token"),
            pointer(config, "sync_token_pointer", null),
            pointer(config, "next_page_pointer", null),
            config.getOrDefault("page_param", "cursor"),
            maxPages);
    if (mode == Mode.SYNC_TOKEN && m.syncTokenPointer() == null) {
      throw new IllegalArgumentException("config.sync_token_pointer is required with sync_token");
    }
    return m;
  }

  private static String pointer(Map<String, String> config, String key, String fallback) {
    String v = config.get(key);
    if (v == null) {
      return fallback;
    }
    if (!v.isEmpty() && !v.startsWith("/")) {
      throw new IllegalArgumentException(
          "config." + key + " must be a JSON pointer starting with '/', was '" + v + "'");
    }
    return v;
  }

  List<RawItem> items(JsonNode root, URI base) {
    JsonNode array =
        itemsPointer != null ? root.at(itemsPointer) : root.isArray() ? root : root.at("/items");
    if (!array.isArray()) {
      throw new IllegalArgumentException(
          "no array of items at " + (itemsPointer == null ? "the root or /items" : itemsPointer));
    }
    List<RawItem> out = new ArrayList<>(Math.min(array.size(), MAX_ITEMS));
    for (JsonNode item : array) {
      if (out.size() >= MAX_ITEMS) {
        break;
      }
      WorkBudget.checkpoint();
      String url = text(item, urlPointer);
      String body = text(item, bodyPointer);
      out.add(
          new RawItem(
              text(item, idPointer),
              url == null ? null : resolve(base, url),
              Text.plain(text(item, titlePointer)),
              body,
              body != null && body.contains("<") ? "text/html" : "text/plain",
              date(text(item, publishedPointer)),
              eventPointer == null ? null : date(text(item, eventPointer)),
              false,
              Map.of()));
    }
    return out;
  }

  String text(JsonNode node, String pointer) {
    if (pointer == null) {
      return null;
    }
    JsonNode v = node.at(pointer);
    if (v.isMissingNode() || v.isNull() || !v.isValueNode()) {
      return null;
    }
    String s = v.asString();
    return s.isBlank() ? null : s;
  }

  String formatSince(Instant since) {
    return switch (sinceFormat) {
      case "epoch_seconds" -> Long.toString(since.getEpochSecond());
      case "epoch_millis" -> Long.toString(since.toEpochMilli());
      default -> since.toString();
    };
  }

  static Instant date(String value) {
    if (value == null) {
      return null;
    }
    Instant written = WebDates.instant(value);
    if (written != null) {
      return written;
    }
    try { // an API's epoch seconds or milliseconds
      double seconds = Double.parseDouble(value.trim().toLowerCase(Locale.ROOT));
      return seconds > 1e11
          ? Instant.ofEpochMilli((long) seconds)
          : Instant.ofEpochMilli((long) (seconds * 1000));
    } catch (NumberFormatException unreadable) {
      return null;
    }
  }

  private static String resolve(URI base, String link) {
    try {
      return base.resolve(link.trim()).toString();
    } catch (IllegalArgumentException e) {
      return link;
    }
  }
}
