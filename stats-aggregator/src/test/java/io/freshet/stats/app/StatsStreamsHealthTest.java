package io.freshet.stats.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;

class StatsStreamsHealthTest {

  @Test
  void onlyARunningTopologyIsReadyAndOnlyAnErrorBreaksLiveness() {
    for (State s : State.values()) {
      assertThat(StatsStreams.readiness(s))
          .as(s.name())
          .isEqualTo(
              s == State.RUNNING
                  ? ReadinessState.ACCEPTING_TRAFFIC
                  : ReadinessState.REFUSING_TRAFFIC);
    }
    assertThat(StatsStreams.readiness(State.REBALANCING))
        .isEqualTo(ReadinessState.REFUSING_TRAFFIC);
    assertThat(StatsStreams.liveness(State.ERROR)).isEqualTo(LivenessState.BROKEN);
    assertThat(StatsStreams.liveness(State.PENDING_ERROR)).isEqualTo(LivenessState.BROKEN);
    assertThat(StatsStreams.liveness(State.REBALANCING)).isEqualTo(LivenessState.CORRECT);
  }
}
