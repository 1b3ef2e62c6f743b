package io.freshet.stack.bench;

import io.freshet.stack.launcher.ManagedProcess;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many broker operations each service's Kafka clients made: the clients' own counters on each
 * service's Prometheus endpoint (Micrometer's Kafka client metrics), summed over the service's
 * clients — produce requests, records sent, fetch requests, records consumed, offset commits.
 * Divided by the window's fetches, they say how per-record the traffic to the broker is.
 */
final class KafkaFigures {

  /** Counter (Prometheus name) → short label. */
  static final Map<String, String> COUNTERS =
      new java.util.LinkedHashMap<>(
          Map.of(
              "kafka_producer_request_total", "produce req",
              "kafka_producer_record_send_total", "records sent",
              "kafka_consumer_fetch_manager_fetch_total", "fetch req",
              "kafka_consumer_fetch_manager_records_consumed_total", "records read",
              "kafka_consumer_coordinator_commit_total", "commits"));

  private final BenchStack stack;

  KafkaFigures(BenchStack stack) {
    this.stack = stack;
  }

  /** Service → counter label → value now. */
  Map<String, Map<String, Double>> sample() {
    Map<String, Map<String, Double>> out = new TreeMap<>();
    for (ManagedProcess p : stack.services.running()) {
      Integer port = stack.publicPort(p.name());
      if (port == null) {
        continue;
      }
      Map<String, Double> counts = new TreeMap<>();
      try {
        for (String line : stack.prometheus(port).split("\n")) {
          int brace = line.indexOf('{');
          String name =
              brace < 0
                  ? line.substring(0, Math.max(0, line.indexOf(' ')))
                  : line.substring(0, brace);
          String label = COUNTERS.get(name);
          // a consumer's records are counted per topic too: the client's own total only
          if (label != null && !line.contains("topic=\"")) {
            counts.merge(
                label, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
          }
        }
      } catch (Exception e) {
        // a service that does not answer is left out of this sample
      }
      out.put(p.name(), counts);
    }
    return out;
  }

  /** Prints each service's counters' growth between two samples per fetch. */
  static void print(
      Map<String, Map<String, Double>> s0, Map<String, Map<String, Double>> s1, long fetches) {
    double f = Math.max(1, fetches);
    StringBuilder b = new StringBuilder("Kafka client operations per fetch:");
    s1.forEach(
        (service, counts) -> {
          Map<String, Double> before = s0.getOrDefault(service, Map.of());
          b.append("\n  ").append(String.format("%-20s", service));
          for (String label : List.copyOf(COUNTERS.values())) {
            Double v = counts.get(label);
            if (v != null) {
              b.append(
                  String.format(" %s %.3f;", label, (v - before.getOrDefault(label, 0.0)) / f));
            }
          }
        });
    System.out.println(b);
  }
}
