package io.freshet.worker.bench;

import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.connector.ical.IcalParses;
import io.freshet.worker.items.RawItem;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * CPU and allocation per document of the iCalendar connector's parse, single-threaded and warm,
 * with the model of what the connector reads ("read") beside ical4j's full model ("full", the
 * connector's path before), alternated in rounds in the same run, for two calendars: the demo web's
 * (20 events of six properties) and a calendar application's export (100 events with a VTIMEZONE,
 * attendees, X- properties, an alarm; some weekly). Prints, per shape and build, the median over
 * rounds of the CPU µs (thread CPU time) and bytes allocated (thread allocation counter) per
 * document. A program, not a test: {@code fetch-worker/bench/calendar-benchmark.sh [rounds]
 * [documents per round]}.
 */
public final class CalendarBenchmark {

  private interface Parse {
    List<RawItem> run(String body, ConnectorOptions options, Instant now) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int perRound = args.length > 1 ? Integer.parseInt(args[1]) : 500;
    Instant now = Instant.parse("2026-11-22T10:00:00Z");
    // the worker's defaults: 50 items, 30 days back, 60 ahead
    ConnectorOptions options =
        new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false);
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    String[] names = {"demo web (20 events)", "export (100 events)"};
    String[] bodies = {Calendars.demoWeb(now, 20), Calendars.export(now, 100)};
    Parse[] builds = {IcalParses::full, IcalParses::read};
    for (int s = 0; s < bodies.length; s++) {
      List<RawItem> full = IcalParses.full(bodies[s], options, now);
      List<RawItem> read = IcalParses.read(bodies[s], options, now);
      if (!full.equals(read)) {
        throw new IllegalStateException(names[s] + ": the builds' items differ");
      }
      System.out.printf("%s: %,d chars, %d items%n", names[s], bodies[s].length(), read.size());
    }
    // warm-up: both builds, both shapes, unmeasured
    for (int w = 0; w < 3; w++) {
      for (String body : bodies) {
        for (Parse build : builds) {
          for (int i = 0; i < perRound; i++) {
            build.run(body, options, now);
          }
        }
      }
    }
    double[][][] cpu = new double[bodies.length][builds.length][rounds];
    double[][][] bytes = new double[bodies.length][builds.length][rounds];
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      for (int s = 0; s < bodies.length; s++) {
        for (int k = 0; k < builds.length; k++) {
          int b = (r % 2 == 0) ? k : builds.length - 1 - k; // alternate which build goes first
          long t0 = threads.getCurrentThreadCpuTime();
          long a0 = threads.getCurrentThreadAllocatedBytes();
          for (int i = 0; i < perRound; i++) {
            sink += builds[b].run(bodies[s], options, now).size();
          }
          cpu[s][b][r] = (threads.getCurrentThreadCpuTime() - t0) / 1e3 / perRound;
          bytes[s][b][r] = (double) (threads.getCurrentThreadAllocatedBytes() - a0) / perRound;
        }
      }
    }
    System.out.printf(
        "%d rounds of %d documents per shape and build, alternated (sink %d)%n",
        rounds, perRound, sink);
    System.out.printf(
        "%-22s %12s %12s %7s %14s %14s %7s%n",
        "shape", "full CPU µs", "read CPU µs", "ratio", "full bytes", "read bytes", "ratio");
    for (int s = 0; s < bodies.length; s++) {
      double fc = median(cpu[s][0]);
      double rc = median(cpu[s][1]);
      double fb = median(bytes[s][0]);
      double rb = median(bytes[s][1]);
      System.out.printf(
          "%-22s %12.1f %12.1f %7.2f %,14.0f %,14.0f %7.2f%n",
          names[s], fc, rc, rc / fc, fb, rb, rb / fb);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
