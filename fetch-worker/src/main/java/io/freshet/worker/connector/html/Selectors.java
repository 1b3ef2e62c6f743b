package io.freshet.worker.connector.html;

import java.util.HashMap;
import java.util.Map;
import org.jsoup.helper.Validate;
import org.jsoup.select.Evaluator;
import org.jsoup.select.QueryParser;

/**
 * The CSS selectors of one page's read, each parsed once. jsoup parses a selector given as a string
 * on every {@code select} call, and a page's item, link and date selectors are applied to each of
 * its matches: parsing them was most of the selecting (the worker's profile, new-content regime).
 * Kept for one page only: a reused structural evaluator memoises the last document it saw per
 * thread, so evaluators of sources' selectors are not kept across fetches.
 */
final class Selectors {

  private final Map<String, Evaluator> parsed = new HashMap<>();

  /**
   * @throws org.jsoup.select.Selector.SelectorParseException for a selector that is not CSS
   */
  Evaluator get(String css) {
    Evaluator evaluator = parsed.get(css);
    if (evaluator == null) {
      evaluator = parse(css);
      parsed.put(css, evaluator);
    }
    return evaluator;
  }

  /** As {@code Element.select(String)} reads {@code css}: an empty one is refused alike. */
  static Evaluator parse(String css) {
    Validate.notEmpty(css);
    return QueryParser.parse(css);
  }
}
