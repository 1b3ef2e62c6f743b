package io.freshet.sink.activity;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.sink.ingest.ContentUpserter.Stored;
import io.freshet.sink.ingest.ContentVersion;
import io.freshet.sink.testing.ContentEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArrivalTest {

  private static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  private static ContentVersion version(String item, int v, String request) {
    var e = ContentEvents.item("s", item, v, T);
    e.setRequestId(request);
    return ContentVersion.of(e, Duration.ofDays(1));
  }

  @Test
  void insertedRowsCountAsNewOrChangedForTheFirstRecordAndEverythingElseAsDuplicate() {
    var a1 = version("a", 1, "r1");
    var b2 = version("b", 2, "r1");
    var c1 = version("c", 1, "r1");
    var a1again = version("a", 1, "r2");
    var stored =
        Map.of(
            a1.key(), new Stored(10, true, false),
            b2.key(), new Stored(11, true, true),
            c1.key(), new Stored(12, false, false));

    var arrivals = Arrival.of(List.of(a1, b2, c1, a1again), stored);

    assertThat(arrivals)
        .extracting(Arrival::requestId, Arrival::contentId, Arrival::novelty)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("r1", 10L, Novelty.NEW),
            org.assertj.core.groups.Tuple.tuple("r1", 11L, Novelty.CHANGED),
            org.assertj.core.groups.Tuple.tuple("r1", 12L, Novelty.DUPLICATE),
            org.assertj.core.groups.Tuple.tuple("r2", 10L, Novelty.DUPLICATE));
  }

  @Test
  void aRecordRepeatedWithinOneRequestArrivesOnce() {
    var a1 = version("a", 1, "r1");
    var stored = Map.of(a1.key(), new Stored(10, true, false));

    var arrivals = Arrival.of(List.of(a1, a1, a1), stored);

    assertThat(arrivals).singleElement().extracting(Arrival::novelty).isEqualTo(Novelty.NEW);
  }
}
