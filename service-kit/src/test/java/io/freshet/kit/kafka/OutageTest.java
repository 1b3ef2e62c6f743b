package io.freshet.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.kit.ops.MutableClock;
import java.net.ConnectException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;

class OutageTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final List<Object> states = new ArrayList<>();
  private final Outage outage =
      new Outage(
          event -> states.add(((AvailabilityChangeEvent<?>) event).getState()),
          clock,
          Duration.ofMinutes(1));

  @Test
  void manyFailuresAreOneOutageThatRefusesTrafficUntilRecordsAreProcessedAgain() {
    for (int i = 0; i < 100; i++) {
      outage.failed(new ConnectException("refused"));
      clock.advance(Duration.ofSeconds(5));
    }
    assertThat(outage.active()).isTrue();
    assertThat(states).containsExactly(ReadinessState.REFUSING_TRAFFIC);

    outage.succeeded();

    assertThat(outage.active()).isFalse();
    assertThat(states)
        .containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
    outage.succeeded();
    assertThat(states).hasSize(2);
  }

  @Test
  void anOutageWithNoFailureForTheQuietPeriodIsOver() {
    outage.failed(new ConnectException("refused"));
    clock.advance(Duration.ofSeconds(61));
    assertThat(outage.active()).isFalse();
    assertThat(states).last().isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
  }

  @Test
  void readinessComesBackAfterTheQuietPeriodEvenWhenNothingElseHappens() {
    List<Object> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    var quiet =
        new Outage(
            event -> seen.add(((AvailabilityChangeEvent<?>) event).getState()),
            java.time.Clock.systemUTC(),
            Duration.ofMillis(200));

    quiet.failed(new ConnectException("refused"));

    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> seen.contains(ReadinessState.ACCEPTING_TRAFFIC));
    assertThat(seen)
        .containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);
  }
}
