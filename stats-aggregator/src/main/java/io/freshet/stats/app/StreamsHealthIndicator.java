package io.freshet.stats.app;

import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health} shows the Streams state: RUNNING is UP, ERROR DOWN, else OUT_OF_SERVICE.
 */
@Component("streams")
class StreamsHealthIndicator implements HealthIndicator {

  private final StatsStreams streams;

  StreamsHealthIndicator(StatsStreams streams) {
    this.streams = streams;
  }

  @Override
  public Health health() {
    KafkaStreams.State state = streams.state();
    Health.Builder b =
        switch (state) {
          case RUNNING -> Health.up();
          case ERROR, PENDING_ERROR, NOT_RUNNING, PENDING_SHUTDOWN -> Health.down();
          case CREATED, REBALANCING -> Health.outOfService();
        };
    return b.withDetail("state", state.name()).build();
  }
}
