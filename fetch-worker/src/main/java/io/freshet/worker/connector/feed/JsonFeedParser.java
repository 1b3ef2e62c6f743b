package io.freshet.worker.connector.feed;

import io.freshet.worker.budget.WorkBudget;
import io.freshet.worker.connector.ServerHints;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.Text;
import io.freshet.worker.items.WebDates;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON Feed 1.0/1.1 (jsonfeed.org): {@code items[]} with id, url, title, content, dates; and what
 * the feed says of itself: {@code feed_url} (its own URL) and the first {@code hubs[]} entry of
 * type {@code WebSub} (its hub).
 */
final class JsonFeedParser {

  /** {@code hubs[]} entries looked at, as {@code FeedHints} bounds the links it reads. */
  static final int MAX_HUBS = 16;

  /** Items mapped per document, as {@link XmlFeedParser#MAX_ITEMS}. */
  static final int MAX_ITEMS = XmlFeedParser.MAX_ITEMS;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  List<RawItem> parse(byte[] body, URI base) throws FetchFailure {
    return read(body, base).items();
  }

  /** The document's items and its self and hub URLs. */
  FeedDocument read(byte[] body, URI base) throws FetchFailure {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JacksonException e) {
      throw new FetchFailure(ErrorKind.PARSE, "not valid JSON: " + e.getOriginalMessage());
    }
    JsonNode items = root == null ? null : root.get("items");
    if (items == null || !items.isArray()) {
      throw new FetchFailure(ErrorKind.PARSE, "not a JSON Feed: no items array");
    }
    List<RawItem> out = new ArrayList<>(Math.min(items.size(), MAX_ITEMS));
    int read = 0;
    for (JsonNode item : items) {
      if (read++ >= MAX_ITEMS) {
        break;
      }
      WorkBudget.checkpoint();
      if (!item.isObject()) {
        continue;
      }
      String html = text(item, "content_html");
      String plain = text(item, "content_text");
      String summary = text(item, "summary");
      String bodyText = html != null ? html : plain != null ? plain : summary;
      String type = html != null ? "text/html" : "text/plain";
      Instant published = date(text(item, "date_published"));
      if (published == null) {
        published = date(text(item, "date_modified"));
      }
      Map<String, String> metadata = new HashMap<>();
      JsonNode authors = item.get("authors");
      if (authors != null && authors.isArray() && !authors.isEmpty()) {
        String name = text(authors.get(0), "name");
        if (name != null) {
          metadata.put("author", name);
        }
      }
      JsonNode tags = item.get("tags");
      if (tags != null && tags.isArray() && !tags.isEmpty()) {
        List<String> names = new ArrayList<>();
        tags.forEach(t -> names.add(t.asString()));
        metadata.put("categories", String.join(", ", names));
      }
      String url = text(item, "url");
      out.add(
          new RawItem(
              idOf(item),
              url == null ? null : resolve(base, url),
              Text.plain(text(item, "title")),
              bodyText,
              type,
              published,
              null,
              false,
              metadata));
    }
    return new FeedDocument(out, hints(root, base));
  }

  private static ServerHints hints(JsonNode root, URI base) {
    String self = link(base, text(root, "feed_url"));
    String hub = null;
    JsonNode hubs = root.get("hubs");
    if (hubs != null && hubs.isArray()) {
      int seen = 0;
      for (JsonNode h : hubs) {
        if (++seen > MAX_HUBS) {
          break;
        }
        if ("websub".equalsIgnoreCase(text(h, "type"))) {
          hub = link(base, text(h, "url"));
          if (hub != null) {
            break;
          }
        }
      }
    }
    if (self == null && hub == null) {
      return ServerHints.NONE;
    }
    return new ServerHints(null, null, null, new TreeSet<>(), new TreeSet<>(), null, self, hub);
  }

  /** A URL the feed gives for itself or its hub: resolved, at most 2,048 characters. */
  private static String link(URI base, String href) {
    if (href == null || href.isBlank() || href.length() > 2_048) {
      return null;
    }
    try {
      return base == null ? href.trim() : base.resolve(href.trim()).toString();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String idOf(JsonNode item) {
    JsonNode id = item.get("id");
    if (id == null || id.isNull()) {
      return null;
    }
    String s = id.isString() ? id.asString() : id.toString();
    return s.isBlank() ? null : s.trim();
  }

  private static String text(JsonNode node, String field) {
    if (node == null) {
      return null;
    }
    JsonNode v = node.get(field);
    return v == null || v.isNull() || !v.isValueNode() ? null : v.asString();
  }

  private static Instant date(String value) {
    return WebDates.instant(value); // JSON Feed says RFC 3339; feeds write what they write
  }

  private static String resolve(URI base, String link) {
    try {
      return base == null ? link : base.resolve(link.trim()).toString();
    } catch (IllegalArgumentException e) {
      return link;
    }
  }
}
