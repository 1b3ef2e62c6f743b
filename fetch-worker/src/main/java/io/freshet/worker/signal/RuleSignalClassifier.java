package io.freshet.worker.signal;

import io.freshet.schemas.avro.SignalType;
import io.freshet.worker.connector.RawItem;
import io.freshet.worker.items.Text;
import java.util.Locale;

/**
 * The default classifier: structure first — an item the connector knows to be an event (calendar
 * event, schema.org Event) or that carries an event time (feed event extension) is an event — then
 * the configured keyword rules over title and plain-text body.
 */
public final class RuleSignalClassifier implements SignalClassifier {

  /** Only the start of a long body is searched: announcements say what they are early. */
  private static final int SCAN_CHARS = 4_000;

  private final Keywords event;
  private final Keywords ask;
  private final Keywords give;

  public RuleSignalClassifier(SignalRules rules) {
    this.event = Keywords.of(rules.eventWords());
    this.ask = Keywords.of(rules.askWords());
    this.give = Keywords.of(rules.giveWords());
  }

  @Override
  public Signal classify(RawItem item) {
    if (item.structuredEvent() || item.eventAt() != null) {
      return new Signal(SignalType.event, item.eventAt());
    }
    String text = searchable(item);
    if (matches(event, text)) {
      return new Signal(SignalType.event, null);
    }
    if (matches(ask, text)) {
      return new Signal(SignalType.ask, null);
    }
    if (matches(give, text)) {
      return new Signal(SignalType.give, null);
    }
    return new Signal(SignalType.informative, null);
  }

  private static String searchable(RawItem item) {
    String title = item.title() == null ? "" : item.title();
    String body = item.body() == null ? "" : item.body();
    if (body.length() > SCAN_CHARS) {
      body = body.substring(0, SCAN_CHARS);
    }
    return (title + " \n " + Text.stripTags(body)).toLowerCase(Locale.ROOT);
  }

  private static boolean matches(Keywords words, String text) {
    return words != null && words.foundIn(text);
  }
}
