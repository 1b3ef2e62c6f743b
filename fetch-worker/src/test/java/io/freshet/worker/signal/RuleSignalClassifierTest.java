package io.freshet.worker.signal;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.SignalType;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.Text;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleSignalClassifierTest {

  private final RuleSignalClassifier classifier =
      new RuleSignalClassifier(
          new SignalRules(
              List.of("meetup", "save the date"), List.of("looking for"), List.of("for sale")));

  private static RawItem item(String title, String body, Instant eventAt, boolean structured) {
    return new RawItem(null, null, title, body, "text/html", null, eventAt, structured, Map.of());
  }

  @Test
  void structureComesFirst() {
    Instant at = Instant.parse("2026-12-01T18:00:00Z");
    assertThat(classifier.classify(item("Bike for sale", null, at, false)))
        .isEqualTo(new Signal(SignalType.event, at));
    assertThat(classifier.classify(item("Standup", null, null, true)).type())
        .isEqualTo(SignalType.event);
  }

  @Test
  void thenKeywordRulesInOrderEventAskGive() {
    assertThat(classifier.classify(item("Rust Meetup in March", null, null, false)).type())
        .isEqualTo(SignalType.event);
    assertThat(
            classifier
                .classify(item("News", "<p>We are <b>looking for</b> help</p>", null, false))
                .type())
        .isEqualTo(SignalType.ask);
    assertThat(classifier.classify(item("Sofa FOR SALE", null, null, false)).type())
        .isEqualTo(SignalType.give);
    assertThat(classifier.classify(item("Council minutes", "Nothing special", null, false)).type())
        .isEqualTo(SignalType.informative);
  }

  @Test
  void wordsMatchWholeNotInsideOtherWords() {
    assertThat(classifier.classify(item("meetups-ish? no: ameetup", null, null, false)).type())
        .isEqualTo(SignalType.informative);
  }

  @Test
  void aGivenPlainBodyGivesWhatStrippingTheBodyGives() {
    String longBody = "<p>" + "Nothing to see. ".repeat(300) + "</p><p>for sale</p>";
    for (RawItem item :
        List.of(
            item("News", "<p>We are <b>looking for</b> help</p>", null, false),
            item("News", null, null, false),
            item("News", "<p>Nothing special</p>", null, false),
            item("News", longBody, null, false),
            item("News", "<p>" + "x ".repeat(1_990) + "meet</p>up", null, false))) {
      String plain = item.body() == null ? "" : Text.stripTags(item.body());
      assertThat(classifier.classify(item, plain)).isEqualTo(classifier.classify(item));
      assertThat(classifier.classify(item, null)).isEqualTo(classifier.classify(item));
    }
  }
}
