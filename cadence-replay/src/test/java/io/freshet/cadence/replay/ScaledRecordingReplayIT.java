package io.freshet.cadence.replay;

import static io.freshet.cadence.replay.Recording.outcome;
import static io.freshet.cadence.replay.Recording.published;
import static io.freshet.cadence.replay.Recording.seen;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay of a recording made as {@code ./freshet up} makes one: a world running 1440 times
 * faster than the wall clock (a simulated day per wall minute), every event stamped in wall time —
 * the fetches' {@code finished_at} and record times, and the publication dates the sources showed
 * (the demo web dates its documents in wall time, in whole seconds). Replaying its last 10 wall
 * minutes must simulate the 10 days they stood for.
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
class ScaledRecordingReplayIT {

  static final double SCALE = 1440;

  /** The demo web's trace start: the simulated time at the recording's wall origin. */
  static final Instant MODEL_ORIGIN = Instant.parse("2025-02-18T00:00:00Z");

  /** Each source changes about this often, simulated hours. */
  static final int[] CHANGE_HOURS = {1, 2, 3, 4, 6, 8, 12, 16, 24, 36, 48, 72};

  /** The live cadence of the recording: every source every 2 simulated hours (5 wall s). */
  static final long FETCH_EVERY_SECONDS = 2 * 3_600;

  static final long DAYS = 12;

  @TempDir Path dir;

  @Test
  void theLastTenWallMinutesOfA1440xDemoAreReplayedAsTenDaysThatTellTheConfigurationsApart(
      KafkaFixture kafka) throws Exception {
    var recording = new Recording(kafka);
    String run = UUID.randomUUID().toString().substring(0, 8);
    // 12 simulated days, ending now: the newest fetch is the end of the recording.
    Instant wallOrigin =
        Instant.now()
            .minus(Duration.ofSeconds((long) (DAYS * 86_400 / SCALE)))
            .truncatedTo(ChronoUnit.SECONDS);
    recording.send(demo(run, wallOrigin));
    String[] clock = {
      "--time-scale",
      "1440",
      "--wall-origin",
      wallOrigin.toString(),
      "--model-origin",
      MODEL_ORIGIN.toString()
    };

    var r =
        ReplayToolTest.run(
            concat(
                new String[] {
                  "--bootstrap", kafka.bootstrapServers(),
                  "--registry", System.getProperty("freshet.registry.url"),
                  "--from", "10m",
                  "--out", dir.toString()
                },
                clock));
    assertThat(r.code()).as(r.err()).isZero();
    System.out.print(r.out()); // the report, for the build log
    System.out.print(r.err());

    // stdout is the table and nothing else: a header and the six default configurations
    List<String> table = r.out().lines().toList();
    assertThat(table).hasSize(7);
    assertThat(table.getFirst()).startsWith("configuration");
    assertThat(r.err().lines().count()).isLessThanOrEqualTo(8);
    assertThat(r.err()).contains("recorded at 1440x").contains("10.0 days of simulated time");

    // the window was simulated as 10 days: the recorded rate (12 sources every 2 h = 6 per
    // simulated hour) is the budget, and every configuration fetched and found changes at its own
    // delay
    Map<String, String[]> rows = csv(dir.resolve("replay.csv"));
    assertThat(rows.keySet())
        .containsExactly(
            "current",
            "adaptive_half_budget",
            "adaptive_double_budget",
            "feed_frequency",
            "signal_adaptive",
            "fixed_1h");
    assertThat(Double.parseDouble(rows.get("current")[3])).isBetween(5.5, 6.5);
    for (String[] row : rows.values()) {
      assertThat(Long.parseLong(row[4])).as(row[0]).isPositive();
    }
    // a fixed hour on 12 sources for 240 h: 2,880 fetches, 12 per hour
    assertThat(Long.parseLong(rows.get("fixed_1h")[4])).isBetween(2_800L, 2_900L);
    assertThat(rows.values().stream().map(row -> row[6]).distinct().count())
        .isGreaterThanOrEqualTo(5);
    assertThat(mean(rows, "adaptive_half_budget"))
        .isGreaterThan(mean(rows, "adaptive_double_budget"));
    assertThat(mean(rows, "fixed_1h")).isLessThan(1.0);

    // the trace handed to the simulator is on the simulated timeline: the demo's 12 days from
    // 2025-02-18
    List<String> trace =
        Files.readAllLines(dir.resolve("trace.csv")).stream()
            .filter(l -> l.startsWith(run))
            .toList();
    assertThat(trace)
        .isNotEmpty()
        .allSatisfy(
            l ->
                assertThat(Instant.parse(l.split(",")[1]))
                    .isBetween(MODEL_ORIGIN, MODEL_ORIGIN.plus(Duration.ofDays(DAYS))));

    // the chart spreads the six points out
    String html = Files.readString(dir.resolve("replay.html"));
    ChartCheck chart =
        ChartCheck.parse(html.substring(html.indexOf("<svg"), html.indexOf("</svg>") + 6));
    assertThat(chart.points()).hasSize(6);
    assertThat(
            chart.points().values().stream()
                .map(p -> Math.round(p[0]) + "," + Math.round(p[1]))
                .distinct())
        .hasSizeGreaterThanOrEqualTo(5);
    assertThat(chart.xTicks()).doesNotHaveDuplicates();
    assertThat(html)
        .contains("fetches per hour (simulated time)")
        .contains("mean delay (h, simulated time)");

    // The same recording read as if in real time (what the analyst got): a 10-minute window in
    // which an hourly cadence never fetches.
    Path real = dir.resolve("real-time");
    var unscaled =
        ReplayToolTest.run(
            "--bootstrap", kafka.bootstrapServers(),
            "--registry", System.getProperty("freshet.registry.url"),
            "--from", "10m",
            "--out", real.toString());
    assertThat(unscaled.code()).as(unscaled.err()).isZero();
    assertThat(Long.parseLong(csv(real.resolve("replay.csv")).get("fixed_1h")[4])).isZero();
  }

  /**
   * The recording: each source publishes about every {@code CHANGE_HOURS[s]} simulated hours and is
   * fetched every 2 simulated hours; a fetch lists the newest 20 items, those published since the
   * previous fetch marked added. Times are wall times: simulated time {@code t} is {@code
   * wallOrigin + (t - MODEL_ORIGIN) / 1440}, publication dates in whole seconds.
   */
  static List<FetchCompleted> demo(String run, Instant wallOrigin) {
    Random random = new Random(42);
    long start = MODEL_ORIGIN.getEpochSecond();
    long end = start + DAYS * 86_400;
    List<FetchCompleted> out = new ArrayList<>();
    for (int s = 0; s < CHANGE_HOURS.length; s++) {
      String id = run + "-source-" + s;
      List<Long> changes = new ArrayList<>();
      for (long t = start - 86_400; t < end; ) {
        t += (long) (CHANGE_HOURS[s] * 3_600 * (0.5 + random.nextDouble()));
        changes.add(t);
      }
      long previous = start - 1;
      for (long f = start + 60L * s; f < end; f += FETCH_EVERY_SECONDS) {
        List<ItemDigest> items = new ArrayList<>();
        for (int i = changes.size() - 1; i >= 0 && items.size() < 20; i--) {
          long c = changes.get(i);
          if (c > f) {
            continue;
          }
          String name = id + "-" + i;
          items.add(
              c > previous
                  ? published(
                      name, ItemNovelty.added, wall(wallOrigin, c).truncatedTo(ChronoUnit.SECONDS))
                  : seen(name));
        }
        out.add(outcome(id, wall(wallOrigin, f), FetchStatus.ok, items));
        previous = f;
      }
    }
    out.sort((a, b) -> a.getFinishedAt().compareTo(b.getFinishedAt()));
    return out;
  }

  static Instant wall(Instant wallOrigin, long modelSeconds) {
    long millis = Math.round((modelSeconds - MODEL_ORIGIN.getEpochSecond()) * 1000 / SCALE);
    return wallOrigin.plusMillis(millis);
  }

  static Map<String, String[]> csv(Path file) throws Exception {
    Map<String, String[]> rows = new java.util.LinkedHashMap<>();
    for (String line : Files.readAllLines(file).subList(1, Files.readAllLines(file).size())) {
      String[] f = line.split(",");
      rows.put(f[0], f);
    }
    return rows;
  }

  static double mean(Map<String, String[]> rows, String name) {
    return Double.parseDouble(rows.get(name)[6]);
  }

  static String[] concat(String[] a, String[] b) {
    String[] r = new String[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
