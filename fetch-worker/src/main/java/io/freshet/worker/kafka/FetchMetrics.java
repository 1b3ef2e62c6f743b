package io.freshet.worker.kafka;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.robots.RobotsDecision;
import io.freshet.worker.robots.RobotsGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * The worker's meters: fetches by status and connector, their duration, bytes, items by novelty,
 * retries, host cool-downs, fetches in flight, robots.txt decisions and requests (dead letters are
 * the service kit's {@code freshet.dead.letters}).
 */
@Component
class FetchMetrics {

  private final MeterRegistry meters;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final DistributionSummary bytes;
  private final Map<ItemNovelty, Counter> items = new EnumMap<>(ItemNovelty.class);
  private final Map<Connector, Timer> durations = new ConcurrentHashMap<>();

  FetchMetrics(MeterRegistry meters, FetchPath path) {
    this.meters = meters;
    this.bytes =
        DistributionSummary.builder("freshet.worker.fetch.bytes")
            .baseUnit("bytes")
            .description("Response bytes read per fetch (decompressed)")
            .register(meters);
    for (ItemNovelty novelty : ItemNovelty.values()) {
      items.put(novelty, meters.counter("freshet.worker.items", "novelty", novelty.name()));
    }
    Gauge.builder("freshet.worker.fetches.in.flight", inFlight, AtomicInteger::get)
        .description("Fetches running in this instance")
        .register(meters);
    FunctionCounter.builder("freshet.worker.http.retries", path.http(), h -> h.retryCount())
        .description("HTTP retries after 429/5xx")
        .register(meters);
    FunctionCounter.builder(
            "freshet.worker.host.cooldowns", path.politeness(), p -> p.coolDownCount())
        .description("Host-wide cool-downs started after 429/503")
        .register(meters);
    Gauge.builder("freshet.worker.hosts.known", path.politeness(), p -> p.hostCount())
        .description("Hosts whose politeness state this instance keeps")
        .register(meters);
    Gauge.builder("freshet.worker.hosts.cooling.down", path.politeness(), p -> p.hostsCoolingDown())
        .description("Hosts in a cool-down now")
        .register(meters);
    for (RobotsDecision.Verdict verdict : RobotsDecision.Verdict.values()) {
      FunctionCounter.builder("freshet.worker.robots", path.robots(), r -> r.decisionCount(verdict))
          .tag("decision", verdict.code())
          .description("robots.txt decisions before a fetch")
          .register(meters);
    }
    for (RobotsGuard.Outcome outcome : RobotsGuard.Outcome.values()) {
      FunctionCounter.builder(
              "freshet.worker.robots.fetches", path.robots(), r -> r.fetchCount(outcome))
          .tag("outcome", outcome.code())
          .description("robots.txt requests by outcome")
          .register(meters);
    }
    Gauge.builder("freshet.worker.robots.hosts", path.robots(), r -> r.cachedHosts())
        .description("Hosts whose robots.txt this instance keeps")
        .register(meters);
  }

  void started() {
    inFlight.incrementAndGet();
  }

  void finished(FetchRequested request, FetchCompleted completed) {
    inFlight.decrementAndGet();
    answered(request, completed);
  }

  /** A partition's records picked up after their worker died: fetched one at a time. */
  void isolated() {
    meters.counter("freshet.worker.crash.guard", "action", "isolated").increment();
  }

  /** A request not fetched again because workers died of it: answered crashed_worker. */
  void condemned(FetchRequested request, FetchCompleted completed) {
    meters.counter("freshet.worker.crash.guard", "action", "condemned").increment();
    answered(request, completed);
  }

  private void answered(FetchRequested request, FetchCompleted completed) {
    if (completed.getErrorKind() != null) {
      meters.counter("freshet.worker.failures", "error_kind", completed.getErrorKind()).increment();
    }
    String connector = request.getConnector().name();
    meters
        .counter(
            "freshet.worker.fetches",
            "status",
            completed.getStatus().name(),
            "connector",
            connector)
        .increment();
    durations
        .computeIfAbsent(
            request.getConnector(),
            c ->
                Timer.builder("freshet.worker.fetch.duration")
                    .tag("connector", c.name())
                    .publishPercentileHistogram()
                    .register(meters))
        .record(Duration.between(completed.getStartedAt(), completed.getFinishedAt()));
    bytes.record(completed.getBytes());
    int[] counts = new int[ItemNovelty.values().length];
    for (ItemDigest item : completed.getItems()) {
      counts[item.getNovelty().ordinal()]++;
    }
    for (ItemNovelty novelty : ItemNovelty.values()) {
      if (counts[novelty.ordinal()] > 0) {
        items.get(novelty).increment(counts[novelty.ordinal()]);
      }
    }
  }

  void abandoned() {
    inFlight.decrementAndGet();
  }
}
