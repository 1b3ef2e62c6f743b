package io.freshet.cadence.replay;

import static io.freshet.cadence.replay.Recording.outcome;
import static io.freshet.cadence.replay.Recording.published;
import static io.freshet.cadence.replay.Recording.seen;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SignalType;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
class ReplayToolIT {

  static final Instant FROM = Instant.parse("2025-01-01T00:00:00Z");
  static final Instant TO = Instant.parse("2025-01-03T00:00:00Z");

  @TempDir Path dir;

  @Test
  void replaysARecordedTopicIntoATraceAReportOfEveryConfigurationAndAChart(KafkaFixture kafka)
      throws Exception {
    var recording = new Recording(kafka);
    String run = UUID.randomUUID().toString().substring(0, 8);
    List<FetchCompleted> outcomes = new ArrayList<>();
    Set<String> expectedTrace = new TreeSet<>();
    for (int s = 0; s < 6; s++) {
      String id = "replay-" + run + "-" + s;
      int every = s + 1;
      List<String> items = new ArrayList<>();
      for (int h = 0; h < 47; h++) {
        Instant at = FROM.plus(Duration.ofHours(h)).plusSeconds(30 * s);
        if (h % 9 == 8) {
          outcomes.add(outcome(id, at, FetchStatus.failed, List.of()));
          continue;
        }
        List<ItemDigest> digests = new ArrayList<>();
        if (h % every == 0) {
          String name = id + "-" + h;
          Instant pub = at.minusSeconds(300);
          ItemDigest d = published(name, ItemNovelty.added, pub);
          SignalType type = SignalType.values()[h % 4];
          d.setSignalType(type);
          String event = "";
          if (type == SignalType.event) {
            d.setEventAt(at.plus(Duration.ofDays(3)));
            event = at.plus(Duration.ofDays(3)).toString();
          }
          digests.add(d);
          items.add(name);
          expectedTrace.add(id + "," + pub + "," + type.name() + "," + event);
        }
        if (h % 10 == 9 && items.size() > 1) { // re-emitted request: an old item marked new again
          String old = items.get(items.size() - 2);
          digests.add(published(old, ItemNovelty.added, at.minusSeconds(7200)));
        }
        items.stream().limit(Math.max(0, items.size() - 1)).forEach(n -> digests.add(seen(n)));
        outcomes.add(outcome(id, at, FetchStatus.ok, digests));
      }
    }
    recording.send(outcomes);
    Path configs = dir.resolve("candidates.json");
    Files.writeString(
        configs,
        """
        [{"name": "hourly", "policy": "fixed"},
         {"name": "every_3h", "policy": "fixed", "scale": 3},
         {"name": "adaptive_10_per_hour", "policy": "adaptive", "budget_per_hour": 10}]
        """);
    Set<String> groupsBefore = groups(kafka);

    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int code =
        ReplayTool.run(
            new String[] {
              "replay",
              "--bootstrap",
              kafka.bootstrapServers(),
              "--registry",
              System.getProperty("freshet.registry.url"),
              "--from",
              FROM.toString(),
              "--to",
              TO.toString(),
              "--configs",
              configs.toString(),
              "--out",
              dir.toString()
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String stdout = out.toString(StandardCharsets.UTF_8);
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertThat(code).as(stderr).isZero();
    System.out.print(stdout); // the report, for the build log

    // the trace is exactly what was produced: one line per first-seen new item
    List<String> trace = Files.readAllLines(dir.resolve("trace.csv"));
    assertThat(trace.getFirst()).isEqualTo("source_id,timestamp_iso,signal_type,event_at");
    assertThat(trace.subList(1, trace.size()))
        .filteredOn(l -> l.startsWith("replay-" + run))
        .containsExactlyInAnyOrderElementsOf(expectedTrace);

    // every configuration in the table and the CSV
    for (String name : List.of("current", "hourly", "every_3h", "adaptive_10_per_hour")) {
      assertThat(stdout).contains(name);
    }
    List<String> csv = Files.readAllLines(dir.resolve("replay.csv"));
    assertThat(csv).hasSize(5);
    assertThat(csv.getFirst()).startsWith("configuration,policy,scale,budget_per_hour,fetches");
    // a fixed hour over 2 days = 48 fetches/day per source; every 3 h costs a third of it
    double hourly = Double.parseDouble(csv.get(2).split(",")[5]);
    double every3 = Double.parseDouble(csv.get(3).split(",")[5]);
    assertThat(hourly).isGreaterThan(every3 * 2.5);
    assertThat(stderr).contains("[replay] reading").contains("wrote");

    // the chart: the SVG parses, one labelled point per configuration inside the plot, and
    // tick labels that tell the ticks apart
    String html = Files.readString(dir.resolve("replay.html"));
    String svg = html.substring(html.indexOf("<svg"), html.indexOf("</svg>") + 6);
    ChartCheck chart = ChartCheck.parse(svg);
    assertThat(chart.points().keySet())
        .containsExactly("current", "hourly", "every_3h", "adaptive_10_per_hour");
    assertThat(chart.xTicks()).doesNotHaveDuplicates().hasSizeGreaterThan(2);
    assertThat(chart.yTicks()).doesNotHaveDuplicates().hasSizeGreaterThan(2);

    // the replay consumer joined no group and committed nothing
    assertThat(groups(kafka)).isEqualTo(groupsBefore);

    // with --content yes, emitted items count too: a source known only there adds its changes,
    // an item already counted from FetchCompleted (same hash) does not come twice
    String only = "replay-" + run + "-content";
    Instant at = FROM.plus(Duration.ofHours(5));
    List<ContentFetched> items =
        List.of(
            content(only, "x", at, at.minusSeconds(60)),
            content(only, "y", at, null),
            content("replay-" + run + "-0", "replay-" + run + "-0-0", at, at.minusSeconds(60)));
    var c = recording.topics.contentFetched();
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(props, c.keySerde().serializer(), c.valueSerde().serializer())) {
      for (ContentFetched item : items) {
        producer.send(
            new ProducerRecord<>(
                c.name(), null, item.getFetchedAt().toEpochMilli(), item.getSourceId(), item));
      }
      producer.flush();
    }
    Path withContent = dir.resolve("with-content");
    var err2 = new ByteArrayOutputStream();
    int again =
        ReplayTool.run(
            new String[] {
              "--bootstrap", kafka.bootstrapServers(),
              "--registry", System.getProperty("freshet.registry.url"),
              "--from", FROM.toString(),
              "--to", TO.toString(),
              "--content", "yes",
              "--out", withContent.toString()
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err2, true, StandardCharsets.UTF_8));
    assertThat(again).as(err2.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(err2.toString(StandardCharsets.UTF_8)).contains("3 in the window, 0 undecodable");
    Set<String> expectedWithContent = new TreeSet<>(expectedTrace);
    expectedWithContent.add(only + "," + at.minusSeconds(60) + ",informative,");
    expectedWithContent.add(only + "," + at + ",informative,");
    assertThat(Files.readAllLines(withContent.resolve("trace.csv")))
        .filteredOn(l -> l.startsWith("replay-" + run))
        .containsExactlyInAnyOrderElementsOf(expectedWithContent);
  }

  static ContentFetched content(String sourceId, String item, Instant fetched, Instant published) {
    return ContentFetched.newBuilder()
        .setRequestId("req-content")
        .setSourceId(sourceId)
        .setTenantId("t")
        .setConnector(Connector.feed)
        .setItemId(item)
        .setContentHash(Recording.hash(item))
        .setFetchedAt(fetched)
        .setPublishedAt(published)
        .build();
  }

  @Test
  void aWindowWithNoRecordsIsAUsageErrorNamingIt(KafkaFixture kafka) {
    new Recording(kafka);
    var err = new ByteArrayOutputStream();
    int code =
        ReplayTool.run(
            new String[] {
              "--bootstrap", kafka.bootstrapServers(),
              "--registry", System.getProperty("freshet.registry.url"),
              "--from", "2020-01-01T00:00:00Z",
              "--to", "2020-01-02T00:00:00Z",
              "--out", dir.toString()
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("no change recorded from 2020-01-01T00:00:00Z");
  }

  static Set<String> groups(KafkaFixture kafka) throws Exception {
    try (var admin = Admin.create(kafka.adminProperties())) {
      Set<String> ids = new TreeSet<>();
      for (GroupListing g : admin.listGroups().all().get()) {
        ids.add(g.groupId());
      }
      return ids;
    }
  }
}
