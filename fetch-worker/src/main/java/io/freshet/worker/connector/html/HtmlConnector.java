package io.freshet.worker.connector.html;

import io.freshet.schemas.avro.Connector;
import io.freshet.worker.budget.WorkBudget;
import io.freshet.worker.connector.DocumentConnector;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.Text;
import io.freshet.worker.items.WebDates;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Evaluator;
import org.jsoup.select.QueryParser;
import org.jsoup.select.Selector;

/**
 * {@code html}: a web page read with jsoup. Options:
 *
 * <ul>
 *   <li>{@code selector}: a CSS selector; each match is an item (its first heading or link text is
 *       the title, its first link the URL, its first {@code time[datetime]} the date). Without it,
 *       the page is one item: its title and the normalised text of {@code main}, {@code article} or
 *       the body.
 *   <li>{@code title_selector}, {@code link_selector}, {@code date_selector}: within an item, where
 *       its title, link and date are (defaults as above).
 * </ul>
 *
 * schema.org {@code Event}s in JSON-LD scripts are items too, as events at their start date.
 */
public final class HtmlConnector extends DocumentConnector {

  /** Selector matches mapped per page; later ones are not (far above any item limit). */
  static final int MAX_ITEMS = 10_000;

  /**
   * Characters of item HTML mapped per page; the match that passes it is the last. Each match's
   * HTML is copied into its item and kept until the fetch ends, so matches nested in each other (a
   * selector {@code div} on 100,000 nested divs) would hold a quadratic amount of text: the work
   * budget counts what is allocated, not what is kept.
   */
  static final long MAX_ITEM_HTML_CHARS = 8L << 20;

  private final JsonLdEvents jsonLd = new JsonLdEvents();

  @Override
  public Connector type() {
    return Connector.html;
  }

  @Override
  protected List<RawItem> parse(HttpResult response, SourceRequest request) throws FetchFailure {
    Document page;
    try {
      var charset = response.declaredCharset();
      page =
          Jsoup.parse(
              new ByteArrayInputStream(response.body()),
              charset == null ? null : charset.name(),
              response.finalUri().toString());
    } catch (IOException e) {
      throw new FetchFailure(ErrorKind.PARSE, "cannot read the page: " + e.getMessage());
    }
    Map<String, String> config = request.config();
    List<RawItem> items = new ArrayList<>(jsonLd.events(page));
    String selector = config.get("selector");
    if (selector == null || selector.isBlank()) {
      items.add(0, wholePage(page, response));
      return items;
    }
    List<Element> matches;
    try {
      matches = page.select(Selectors.parse(selector));
    } catch (Selector.SelectorParseException e) {
      throw new FetchFailure(ErrorKind.CONFIG, "config.selector is not valid CSS: " + selector);
    }
    Selectors within = new Selectors();
    int read = 0;
    long chars = 0;
    for (Element element : matches) {
      if (read++ >= MAX_ITEMS || chars >= MAX_ITEM_HTML_CHARS) {
        break;
      }
      WorkBudget.checkpoint();
      RawItem item = item(element, config, within);
      chars += item.body().length();
      items.add(item);
    }
    return items;
  }

  private static RawItem wholePage(Document page, HttpResult response) {
    Element main = page.selectFirst(MAIN);
    if (main == null) {
      main = page.selectFirst(ARTICLE);
    }
    if (main == null) {
      main = page.body();
    }
    String text = main == null ? "" : Text.collapse(main.text());
    return new RawItem(
        response.finalUri().toString(),
        response.finalUri().toString(),
        Text.plain(page.title()),
        text,
        "text/plain",
        null,
        null,
        false,
        Map.of());
  }

  private static final Evaluator MAIN = QueryParser.parse("main");
  private static final Evaluator ARTICLE = QueryParser.parse("article");

  private static RawItem item(Element element, Map<String, String> config, Selectors within)
      throws FetchFailure {
    Element title = first(element, config.getOrDefault("title_selector", TITLE), within);
    Element link = first(element, config.getOrDefault("link_selector", LINK), within);
    Element date = first(element, config.getOrDefault("date_selector", DATE), within);
    String url = link == null ? null : link.absUrl("href");
    return new RawItem(
        element.id().isBlank() ? null : element.id(),
        url == null || url.isBlank() ? null : url,
        title == null ? null : Text.plain(title.text()),
        element.html(),
        "text/html",
        date == null ? null : date(date.hasAttr("datetime") ? date.attr("datetime") : date.text()),
        null,
        false,
        Map.of());
  }

  private static final String TITLE = "h1, h2, h3, h4, a";
  private static final String LINK = "a[href]";
  private static final String DATE = "time[datetime]";

  private static Element first(Element scope, String selector, Selectors within)
      throws FetchFailure {
    try {
      return scope.selectFirst(within.get(selector));
    } catch (Selector.SelectorParseException e) {
      throw new FetchFailure(
          ErrorKind.CONFIG, "a selector in config is not valid CSS: " + selector);
    }
  }

  static Instant date(String value) {
    return WebDates.instant(value);
  }
}
