package io.freshet.worker.signal;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.SignalType;
import io.freshet.worker.items.RawItem;
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
}
