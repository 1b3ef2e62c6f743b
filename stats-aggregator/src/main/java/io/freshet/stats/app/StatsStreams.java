package io.freshet.stats.app;

import io.freshet.kit.kafka.DeadLetterTopics;
import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.stats.state.SourceState;
import io.freshet.stats.topology.SourceStatsTopology;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the topology. Readiness follows the Streams state (only RUNNING is ready: REBALANCING and
 * restoring are not), liveness breaks on ERROR; a failed stream thread is replaced, so a task that
 * failed on an outage retries from its last commit.
 */
@Component
public class StatsStreams implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(StatsStreams.class);

  private final KafkaStreams streams;
  private final ApplicationEventPublisher events;
  private final MeterRegistry meters;
  private final DeadLetterTopics deadLetterTopics;
  private final String applicationId;
  private volatile boolean running;
  private KafkaStreamsMetrics metrics;

  StatsStreams(
      Topology topology,
      StreamsConfiguration.StreamsSettings settings,
      ApplicationEventPublisher events,
      MeterRegistry meters,
      DeadLetterTopics deadLetterTopics,
      StatsProperties props) {
    this.streams = new KafkaStreams(topology, settings.properties());
    this.deadLetterTopics = deadLetterTopics;
    this.applicationId = props.applicationId();
    this.events = events;
    this.meters = meters;
  }

  @Override
  public void start() {
    // Streams does not create the topics it writes: the application's dead-letter topic is its own
    // to create (its only writer), shaped like the topic it mirrors.
    String dlq = Topic.dlqName(FreshetTopics.FETCH_COMPLETED, applicationId);
    try {
      deadLetterTopics.ensure(dlq, FreshetTopics.FETCH_COMPLETED);
    } catch (RuntimeException e) {
      log.warn("dead-letter topic {} not checked at start-up: {}", dlq, Failures.reason(e));
    }
    streams.setStateListener(
        (now, before) -> {
          log.info("kafka streams {} -> {}", before, now);
          AvailabilityChangeEvent.publish(events, this, readiness(now));
          if (liveness(now) == LivenessState.BROKEN) {
            AvailabilityChangeEvent.publish(events, this, LivenessState.BROKEN);
          }
        });
    streams.setUncaughtExceptionHandler(
        e -> {
          log.error("stream thread failed; replacing it", e);
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
    metrics = new KafkaStreamsMetrics(streams);
    metrics.bindTo(meters);
    Gauge.builder("freshet.stats.store.sources", this, StatsStreams::approximateSources)
        .description("Sources in this instance's state store (approximate)")
        .register(meters);
    streams.start();
    running = true;
  }

  /** Ready only while RUNNING: rebalancing, restoring, starting and stopping are not. */
  static ReadinessState readiness(KafkaStreams.State state) {
    return state == KafkaStreams.State.RUNNING
        ? ReadinessState.ACCEPTING_TRAFFIC
        : ReadinessState.REFUSING_TRAFFIC;
  }

  /** Broken once Streams is in ERROR (terminal: every thread died); live otherwise. */
  static LivenessState liveness(KafkaStreams.State state) {
    return switch (state) {
      case ERROR, PENDING_ERROR -> LivenessState.BROKEN;
      case CREATED, REBALANCING, RUNNING, PENDING_SHUTDOWN, NOT_RUNNING -> LivenessState.CORRECT;
    };
  }

  @Override
  public void stop() {
    running = false;
    streams.close(java.time.Duration.ofSeconds(30));
    if (metrics != null) {
      metrics.close();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  public KafkaStreams streams() {
    return streams;
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /** This instance's store (active tasks only). */
  public ReadOnlyKeyValueStore<String, SourceState> store() {
    return streams.store(
        StoreQueryParameters.fromNameAndType(
            SourceStatsTopology.STORE, QueryableStoreTypes.<String, SourceState>keyValueStore()));
  }

  private double approximateSources() {
    try {
      return streams.state() == KafkaStreams.State.RUNNING ? store().approximateNumEntries() : 0;
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }
}
