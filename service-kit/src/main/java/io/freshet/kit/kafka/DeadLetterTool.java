package io.freshet.kit.kafka;

import io.freshet.kit.cli.CommandLines;
import io.freshet.schemas.topic.Topic;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * The operator's dead-letter tool ({@code ./freshet dlq}):
 *
 * <pre>
 * list                       every dead-letter topic: its topic, consumer group, letters, re-driven
 * show DLQ [--limit N]       the letters of one: offset, key, origin, reason, where in the code
 * redrive DLQ [--dry-run]    sends the letters not yet re-driven back to their topic, marked for
 *                            the one consumer group that failed them (the others skip them)
 * </pre>
 *
 * A re-drive sends each letter's original key, bytes and headers to its original topic with the
 * {@link DeadLetter#REDRIVE_GROUP} header, then commits its progress as consumer group {@value
 * #REDRIVE_GROUP} on the dead-letter topic: a second re-drive sends only letters that arrived
 * since. Every Freshet consumer is idempotent, so a letter re-driven twice (a crash between send
 * and commit) is applied once. Exit codes: 0 done, 1 the cluster failed or refused, 2 bad arguments
 * (one line on stderr; {@code dlq --help} and each command's {@code --help} list the options).
 */
@Command(
    name = "dlq",
    sortOptions = false,
    description = {
      "Dead letters per consumer group: each group's failed records are on <topic>.dlq.<group>."
          + " Re-driven letters go back to their topic marked for the one group that failed them"
          + " (the others skip them); the progress is committed as consumer group "
          + DeadLetterTool.REDRIVE_GROUP
          + ", so a second re-drive sends only letters that arrived since.",
      ""
    },
    subcommands = {
      DeadLetterTool.ListCommand.class,
      DeadLetterTool.ShowCommand.class,
      DeadLetterTool.RedriveCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done",
      "1:the cluster failed or refused",
      "2:bad arguments: an option, a topic that is not a dead-letter topic or does not exist"
    })
public final class DeadLetterTool implements Callable<Integer> {

  /** The consumer group whose committed offsets on a dead-letter topic mark what was re-driven. */
  public static final String REDRIVE_GROUP = "freshet-dlq-redrive";

  private final String bootstrap;
  private final PrintStream out;
  private PrintStream err = System.err;

  @Spec CommandSpec spec;

  @Mixin CommandLines.Help help;

  public DeadLetterTool(String bootstrap, PrintStream out) {
    this.bootstrap = bootstrap;
    this.out = out;
  }

  /** The tool against {@code KAFKA_BOOTSTRAP_SERVERS} (default {@code localhost:9092}). */
  public static void main(String[] args) {
    String bootstrap = System.getenv("KAFKA_BOOTSTRAP_SERVERS");
    System.exit(
        run(
            args,
            bootstrap == null || bootstrap.isBlank() ? "localhost:9092" : bootstrap,
            System.out,
            System.err));
  }

  /** Runs one command; returns the exit code. */
  public static int run(String[] args, String bootstrap, PrintStream out, PrintStream err) {
    var tool = new DeadLetterTool(bootstrap, out);
    tool.err = err;
    CommandLine cli = CommandLines.create(tool, "dlq", out, err);
    cli.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return 1;
          }
          if (e instanceof IllegalArgumentException) { // not a dead-letter topic, no such topic
            err.println("dlq: " + e.getMessage());
            return 2;
          }
          err.println("dlq: " + Failures.reason(e));
          return 1;
        });
    return cli.execute(args);
  }

  /** No command: the usage on stderr, exit code 2. */
  @Override
  public Integer call() {
    spec.commandLine().usage(err);
    return 2;
  }

  /** {@code list}. */
  @Command(
      name = "list",
      description = {
        "Every dead-letter topic: its letters, how many were re-driven, how many are pending.",
        ""
      })
  static final class ListCommand implements Callable<Integer> {
    @ParentCommand DeadLetterTool tool;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws ExecutionException, InterruptedException {
      tool.list();
      return 0;
    }
  }

  /** {@code show DLQ [--limit N]}. */
  @Command(
      name = "show",
      description = {
        "The first letters of one dead-letter topic: offset, key, origin, reason, where in the"
            + " code.",
        ""
      })
  static final class ShowCommand implements Callable<Integer> {
    @ParentCommand DeadLetterTool tool;

    @Parameters(
        index = "0",
        paramLabel = "DLQ-TOPIC",
        description = "a dead-letter topic, <topic>.dlq.<group> (see dlq list)")
    String dlq;

    @Option(
        names = "--limit",
        paramLabel = "N",
        defaultValue = "20",
        converter = CommandLines.AtLeastOne.class,
        description = "letters to show at most (default: ${DEFAULT-VALUE})")
    int limit;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() {
      tool.show(checked(dlq), limit);
      return 0;
    }
  }

  /** {@code redrive DLQ [--dry-run]}. */
  @Command(
      name = "redrive",
      description = {
        "Sends the letters not yet re-driven back to their topic, marked for the one consumer"
            + " group that failed them.",
        ""
      })
  static final class RedriveCommand implements Callable<Integer> {
    @ParentCommand DeadLetterTool tool;

    @Parameters(
        index = "0",
        paramLabel = "DLQ-TOPIC",
        description = "a dead-letter topic, <topic>.dlq.<group> (see dlq list)")
    String dlq;

    @Option(names = "--dry-run", description = "only count the letters that would be re-driven")
    boolean dryRun;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws ExecutionException, InterruptedException {
      tool.redrive(checked(dlq), dryRun);
      return 0;
    }
  }

  private static String checked(String dlq) {
    if (!Topic.isDlq(dlq)) {
      throw new IllegalArgumentException(
          "'" + dlq + "' is not a dead-letter topic (<topic>.dlq.<group>; see dlq list)");
    }
    return dlq;
  }

  /** One line per dead-letter topic. */
  public void list() throws ExecutionException, InterruptedException {
    try (Admin admin = Admin.create(adminProps())) {
      var names = new TreeSet<String>();
      for (String t : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
        if (Topic.isDlq(t)) {
          names.add(t);
        }
      }
      if (names.isEmpty()) {
        out.println("no dead-letter topics");
        return;
      }
      out.printf("%-60s %8s %10s %8s%n", "dead-letter topic", "letters", "re-driven", "pending");
      for (String dlq : names) {
        Map<TopicPartition, Long> begin = offsets(admin, dlq, OffsetSpec.earliest());
        Map<TopicPartition, Long> end = offsets(admin, dlq, OffsetSpec.latest());
        Map<TopicPartition, OffsetAndMetadata> done =
            admin
                .listConsumerGroupOffsets(REDRIVE_GROUP)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        long letters = 0;
        long redriven = 0;
        for (var e : end.entrySet()) {
          long from = begin.getOrDefault(e.getKey(), 0L);
          letters += e.getValue() - from;
          OffsetAndMetadata d = done.get(e.getKey());
          redriven += d == null ? 0 : Math.max(0, d.offset() - from);
        }
        out.printf("%-60s %8d %10d %8d%n", dlq, letters, redriven, letters - redriven);
      }
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("no answer from " + bootstrap + " within 30 s");
    }
  }

  /** The first {@code limit} letters of {@code dlq}. */
  public void show(String dlq, int limit) {
    try (var consumer = consumer(null)) {
      List<TopicPartition> parts = assignAll(consumer, dlq);
      consumer.seekToBeginning(parts);
      int shown = 0;
      for (ConsumerRecord<byte[], byte[]> r : readToEnd(consumer, parts)) {
        if (shown++ == limit) {
          out.println("... (--limit " + limit + ")");
          break;
        }
        var h = r.headers();
        out.printf(
            "%s-%d@%d key=%s at %s%n  from %s-%d@%d, group %s%n  reason: %s%n  where: %s%n",
            r.topic(),
            r.partition(),
            r.offset(),
            r.key() == null ? "null" : new String(r.key(), StandardCharsets.UTF_8),
            Instant.ofEpochMilli(r.timestamp()),
            DeadLetter.text(h, DeadLetter.ORIGINAL_TOPIC),
            DeadLetter.number(h, DeadLetter.ORIGINAL_PARTITION),
            DeadLetter.number(h, DeadLetter.ORIGINAL_OFFSET),
            DeadLetter.text(h, DeadLetter.GROUP),
            DeadLetter.text(h, DeadLetter.REASON),
            DeadLetter.text(h, DeadLetter.FIRST_FRAME));
      }
      if (shown == 0) {
        out.println(dlq + ": no letters");
      }
    }
  }

  /**
   * Sends the letters of {@code dlq} not yet re-driven to their original topic, for the group that
   * failed them, and records the progress; with {@code dryRun} only counts them.
   *
   * @return the letters sent (or that would be)
   */
  public int redrive(String dlq, boolean dryRun) throws ExecutionException, InterruptedException {
    int infix = dlq.indexOf(Topic.DLQ_INFIX);
    String defaultTopic = dlq.substring(0, infix);
    String group = dlq.substring(infix + Topic.DLQ_INFIX.length());
    int sent = 0;
    try (var consumer = consumer(REDRIVE_GROUP);
        var producer = producer()) {
      List<TopicPartition> parts = assignAll(consumer, dlq);
      Map<TopicPartition, OffsetAndMetadata> committed =
          consumer.committed(new java.util.HashSet<>(parts));
      for (TopicPartition tp : parts) {
        OffsetAndMetadata c = committed.get(tp);
        if (c == null) {
          consumer.seekToBeginning(List.of(tp));
        } else {
          consumer.seek(tp, c.offset());
        }
      }
      Map<TopicPartition, OffsetAndMetadata> progress = new HashMap<>();
      for (ConsumerRecord<byte[], byte[]> r : readToEnd(consumer, parts)) {
        String topic = DeadLetter.text(r.headers(), DeadLetter.ORIGINAL_TOPIC);
        var headers = DeadLetter.ownHeaders(r.headers());
        headers.add(DeadLetter.REDRIVE_GROUP, group.getBytes(StandardCharsets.UTF_8));
        if (!dryRun) {
          producer
              .send(
                  new ProducerRecord<>(
                      topic == null ? defaultTopic : topic, null, r.key(), r.value(), headers))
              .get();
        }
        progress.put(
            new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        sent++;
      }
      if (!dryRun && !progress.isEmpty()) {
        consumer.commitSync(progress);
      }
    }
    out.println(
        (dryRun ? "would re-drive " : "re-drove ")
            + sent
            + " letters of "
            + dlq
            + " to "
            + defaultTopic
            + " for consumer group "
            + group);
    return sent;
  }

  private static Map<TopicPartition, Long> offsets(Admin admin, String topic, OffsetSpec spec)
      throws ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
    var description =
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    description
        .partitions()
        .forEach(p -> request.put(new TopicPartition(topic, p.partition()), spec));
    Map<TopicPartition, Long> result = new HashMap<>();
    admin
        .listOffsets(request)
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((tp, info) -> result.put(tp, info.offset()));
    return result;
  }

  private List<TopicPartition> assignAll(KafkaConsumer<byte[], byte[]> consumer, String topic) {
    var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
    if (infos == null || infos.isEmpty()) {
      throw new IllegalArgumentException("no topic " + topic + " (see dlq list)");
    }
    List<TopicPartition> parts = new ArrayList<>();
    infos.forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
    consumer.assign(parts);
    return parts;
  }

  private static List<ConsumerRecord<byte[], byte[]>> readToEnd(
      KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> parts) {
    Map<TopicPartition, Long> end = consumer.endOffsets(parts);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    Instant deadline = Instant.now().plusSeconds(120);
    while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("could not read to the end of " + parts);
      }
      for (var r : consumer.poll(Duration.ofMillis(500))) {
        if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
          records.add(r);
        }
      }
    }
    return records;
  }

  private Properties adminProps() {
    var p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    return p;
  }

  private KafkaConsumer<byte[], byte[]> consumer(String group) {
    var p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    if (group != null) {
      p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    }
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  private KafkaProducer<byte[], byte[]> producer() {
    var p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
