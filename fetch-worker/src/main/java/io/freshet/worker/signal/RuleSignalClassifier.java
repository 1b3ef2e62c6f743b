package io.freshet.worker.signal;

import io.freshet.schemas.avro.SignalType;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.Text;
import java.util.List;
import java.util.Locale;

/**
 * The default classifier: structure first — an item the connector knows to be an event (calendar
 * event, schema.org Event) or that carries an event time (feed event extension) is an event — then
 * the configured keyword rules over title and plain-text body.
 */
public final class RuleSignalClassifier implements SignalClassifier {

  /** Only the start of a long body is searched: announcements say what they are early. */
  private static final int SCAN_CHARS = 4_000;

  /** Signal types in the order their rules are tried; the index is the rank in {@link #words}. */
  private static final SignalType[] RANKED = {SignalType.event, SignalType.ask, SignalType.give};

  private final Keywords words;

  public RuleSignalClassifier(SignalRules rules) {
    this.words = Keywords.of(List.of(rules.eventWords(), rules.askWords(), rules.giveWords()));
  }

  @Override
  public Signal classify(RawItem item) {
    return classify(item, null);
  }

  @Override
  public Signal classify(RawItem item, String plainBody) {
    if (item.structuredEvent() || item.eventAt() != null) {
      return new Signal(SignalType.event, item.eventAt());
    }
    int rank = words.bestRankIn(searchable(item, plainBody));
    return new Signal(rank < 0 ? SignalType.informative : RANKED[rank], null);
  }

  private static String searchable(RawItem item, String plainBody) {
    String title = item.title() == null ? "" : item.title();
    String body = item.body() == null ? "" : item.body();
    String text;
    if (body.length() > SCAN_CHARS) {
      text = Text.stripTags(body.substring(0, SCAN_CHARS));
    } else {
      // the whole body is searched: its plain text, when the caller has it, is what stripping
      // would give
      text = plainBody != null ? plainBody : Text.stripTags(body);
    }
    return (title + " \n " + text).toLowerCase(Locale.ROOT);
  }
}
