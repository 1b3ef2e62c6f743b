package io.freshet.cadence.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TraceGeneratorTest {

  private static final TraceGenerator.Settings SETTINGS =
      new TraceGenerator.Settings(600, 60, 11, Instant.parse("2026-01-05T00:00:00Z"), 0.3, 2.2);

  @Test
  void isDeterministicForASeed() {
    Trace a = TraceGenerator.generate(SETTINGS);
    Trace b = TraceGenerator.generate(SETTINGS);
    for (int s = 0; s < a.sources(); s++) {
      assertThat(a.times()[s]).isEqualTo(b.times()[s]);
    }
  }

  @Test
  void ratesSpanAtLeastFourOrdersOfMagnitude() {
    Trace tr = TraceGenerator.generate(SETTINGS);
    double[] perDay = new double[tr.sources()];
    for (int s = 0; s < tr.sources(); s++) {
      perDay[s] = Math.max(tr.times()[s].length, 0.5) / 60.0;
    }
    Arrays.sort(perDay);
    double p1 = perDay[(int) (0.01 * perDay.length)];
    double p99 = perDay[(int) (0.99 * perDay.length)];
    assertThat(p99 / p1).isGreaterThan(1e3);
    assertThat(perDay[perDay.length - 1] / perDay[0]).isGreaterThan(1e4);
  }

  @Test
  void changesStayInsideTheTraceAndAreSorted() {
    Trace tr = TraceGenerator.generate(SETTINGS);
    long start = SETTINGS.start().getEpochSecond();
    long end = start + 60 * 86400L;
    for (long[] t : tr.times()) {
      for (int i = 0; i < t.length; i++) {
        assertThat(t[i]).isBetween(start, end);
        if (i > 0) {
          assertThat(t[i]).isGreaterThanOrEqualTo(t[i - 1]);
        }
      }
    }
  }

  @Test
  void calendarItemsCarryFutureEventDates() {
    Trace tr = TraceGenerator.generate(SETTINGS);
    long dated = 0;
    for (int s = 0; s < tr.sources(); s++) {
      for (int i = 0; i < tr.times()[s].length; i++) {
        long event = tr.eventAt()[s][i];
        if (event != Trace.NONE) {
          dated++;
          assertThat(event).isGreaterThan(tr.times()[s][i]);
        }
      }
    }
    assertThat(dated).isPositive();
  }

  @Test
  void someSourcesGoDormantAndWakeUp() {
    Trace tr = TraceGenerator.generate(SETTINGS);
    int wokeUp = 0;
    for (long[] t : tr.times()) {
      // active sources whose first change comes weeks into the trace
      if (t.length > 50 && t[0] - SETTINGS.start().getEpochSecond() > 10 * 86400L) {
        wokeUp++;
      }
    }
    assertThat(wokeUp).isPositive();
  }
}
