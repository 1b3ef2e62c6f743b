package io.freshet.cadence.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.cadence.source.SignalType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TraceCsvTest {

  private static Trace read(String csv) throws IOException {
    return TraceCsv.read(new BufferedReader(new StringReader(csv)));
  }

  private static long t(String iso) {
    return Instant.parse(iso).getEpochSecond();
  }

  @Test
  void readsTwoColumnTracesWithOrWithoutHeader() throws IOException {
    Trace a =
        read("source_id,timestamp_iso\nfeed-1,2026-01-05T12:00:00Z\nfeed-2,2026-01-05T13:00:00Z\n");
    Trace b = read("feed-1,2026-01-05T12:00:00Z\n\nfeed-2,2026-01-05T13:00:00Z\n");
    assertThat(a.ids()).containsExactly("feed-1", "feed-2");
    assertThat(b.ids()).containsExactly("feed-1", "feed-2");
    assertThat(a.times()[1]).containsExactly(t("2026-01-05T13:00:00Z"));
    assertThat(a.types()).isNull();
    assertThat(a.eventAt()).isNull();
  }

  @Test
  void readsSignalTypesEventDatesAndOffsets() throws IOException {
    Trace tr =
        read(
            "cal,2026-01-05T12:00:00.500Z,event,2026-01-09T18:00:00+01:00\ncal,2026-01-06T12:00:00Z,,\n");
    assertThat(tr.times()[0]).containsExactly(t("2026-01-05T12:00:00Z"), t("2026-01-06T12:00:00Z"));
    assertThat(tr.types()[0]).containsExactly((byte) SignalType.EVENT.ordinal(), (byte) -1);
    assertThat(tr.eventAt()[0]).containsExactly(t("2026-01-09T17:00:00Z"), Trace.NONE);
  }

  @Test
  void sortsEachSourcesChanges() throws IOException {
    Trace tr = read("s,2026-01-05T12:00:00Z,ask,\ns,2026-01-05T10:00:00Z,give,\n");
    assertThat(tr.times()[0]).containsExactly(t("2026-01-05T10:00:00Z"), t("2026-01-05T12:00:00Z"));
    assertThat(tr.types()[0])
        .containsExactly((byte) SignalType.GIVE.ordinal(), (byte) SignalType.ASK.ordinal());
  }

  @Test
  void anUnparsableTimestampNamesItsLine() {
    assertThatThrownBy(() -> read("source_id,timestamp_iso\ns,2026-01-05T12:00:00Z\ns,yesterday\n"))
        .isInstanceOf(TraceFormatException.class)
        .hasMessage(
            "line 3: unparsable timestamp 'yesterday' (expected ISO-8601 such as 2026-01-05T12:00:00Z)");
    assertThatThrownBy(() -> read("s,2026-02-30T12:00:00Z\n"))
        .hasMessageStartingWith("line 1: unparsable timestamp");
  }

  @Test
  void badColumnsAndTypesNameTheirLine() {
    assertThatThrownBy(() -> read("just-an-id\n"))
        .hasMessageStartingWith("line 1: expected source_id,timestamp_iso");
    assertThatThrownBy(() -> read("s,2026-01-05T12:00:00Z,rumour,\n"))
        .hasMessage(
            "line 1: unknown signal_type 'rumour'; allowed values: event, ask, give, informative");
    assertThatThrownBy(() -> read(",2026-01-05T12:00:00Z\n")).hasMessage("line 1: empty source_id");
    assertThatThrownBy(() -> read("s,2026-01-05T12:00:00Z,event,soon\n"))
        .hasMessageStartingWith("line 1: unparsable event_at 'soon'");
  }

  @Test
  void writeThenReadIsTheSameTrace() throws IOException {
    Trace tr =
        TraceGenerator.generate(
            new TraceGenerator.Settings(20, 10, 5, Instant.parse("2026-01-05T00:00:00Z"), 2, 1.5));
    StringWriter w = new StringWriter();
    TraceCsv.write(tr, w);
    assertThat(w.toString()).startsWith(TraceCsv.HEADER + "\n");
    Trace back = read(w.toString());
    // sources without any change do not appear in a CSV
    for (int s = 0, b = 0; s < tr.sources(); s++) {
      if (tr.times()[s].length == 0) {
        continue;
      }
      assertThat(back.ids().get(b)).isEqualTo(tr.ids().get(s));
      assertThat(back.times()[b]).isEqualTo(tr.times()[s]);
      assertThat(back.types()[b]).isEqualTo(tr.types()[s]);
      assertThat(back.eventAt()[b]).isEqualTo(tr.eventAt()[s]);
      b++;
    }
  }
}
