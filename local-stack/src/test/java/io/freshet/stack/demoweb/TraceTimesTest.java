package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TraceTimesTest {

  @Test
  void readsEachSourcesTimesSortedIgnoringTheHeaderAndTheLabsExtraColumns() throws Exception {
    TraceTimes t =
        TraceTimes.read(
            new BufferedReader(
                new StringReader(
                    """
                    source_id,timestamp_iso,signal_type,event_at
                    b,2025-02-18T01:00:00Z,,
                    a,2025-02-18T00:00:00+01:00
                    b,2025-02-18T00:00:00Z,event,2025-02-20T00:00:00Z

                    """)));
    assertThat(t.ids()).containsExactly("b", "a");
    long midnight = Instant.parse("2025-02-18T00:00:00Z").getEpochSecond();
    assertThat(t.times()[0]).containsExactly(midnight, midnight + 3_600);
    assertThat(t.times()[1]).containsExactly(midnight - 3_600);
  }

  @Test
  void aBadLineIsNamedByItsNumber() {
    assertThatThrownBy(
            () ->
                TraceTimes.read(
                    new BufferedReader(new StringReader("a,2025-02-18T00:00:00Z\na,yesterday\n"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 2")
        .hasMessageContaining("'yesterday'");
    assertThatThrownBy(() -> TraceTimes.read(new BufferedReader(new StringReader("only-an-id\n"))))
        .hasMessageContaining("line 1");
  }
}
