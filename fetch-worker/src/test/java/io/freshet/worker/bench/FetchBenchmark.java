package io.freshet.worker.bench;

import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.FeedServer;
import io.freshet.testsupport.Infrastructure;
import io.freshet.worker.FetchWorkerApplication;
import io.freshet.worker.connector.feed.FeedConnector;
import io.freshet.worker.testing.Requests;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Fetches per second of one worker instance, Kafka in and out, against a local HTTP server serving
 * realistic feeds (20 items, ~30 KB), beside two loops over the same server in the same run: a bare
 * HTTP-client GET loop and a GET + parse loop with the worker's parser. Prints the three figures
 * and the ratio worker / (GET + parse). The worker, like the loops, has a warm-up pass first (its
 * figure is printed too). CPU time per fetch of each measured phase is printed as well: on a shared
 * machine it swings far less than the rates. A program, not a test: {@code
 * fetch-worker/bench/fetch-benchmark.sh [requests] [concurrency]}.
 */
public final class FetchBenchmark {

  public static void main(String[] args) throws Exception {
    int requests = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
    int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 32;
    int feeds = 200;
    Infrastructure.start(
        List.of(
            io.freshet.testsupport.RealInfrastructure.Component.KAFKA,
            io.freshet.testsupport.RealInfrastructure.Component.REGISTRY));
    Infrastructure.publishSystemProperties();
    try (FeedServer web = FeedServer.start()) {
      byte[] feed = realisticFeed().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      for (int i = 0; i < feeds; i++) {
        web.serve(
            "/feed/" + i,
            "application/rss+xml",
            new String(feed, java.nio.charset.StandardCharsets.UTF_8),
            null);
      }
      System.out.printf(
          "feed size %,d bytes, 20 items, %d feeds, %d requests, concurrency %d%n",
          feed.length, feeds, requests, concurrency);
      loop(web, feeds, requests / 4, concurrency, false); // warm-up
      long cpu = cpuNanos();
      ThreadCpu threads = ThreadCpu.now();
      double get = loop(web, feeds, requests, concurrency, false);
      double getCpu = (cpuNanos() - cpu) / 1e6 / requests;
      double[] getGroups = threads.perFetchSince(cpu, requests);
      loop(web, feeds, requests / 4, concurrency, true); // warm-up
      cpu = cpuNanos();
      threads = ThreadCpu.now();
      double parse = loop(web, feeds, requests, concurrency, true);
      double parseCpu = (cpuNanos() - cpu) / 1e6 / requests;
      double[] parseGroups = threads.perFetchSince(cpu, requests);
      double[] worker = worker(web, feeds, requests);
      System.out.printf("bare GET loop                          : %8.1f fetches/s%n", get);
      System.out.printf("GET + parse loop                       : %8.1f fetches/s%n", parse);
      System.out.printf("worker, warm-up (first fetches, cold)  : %8.1f fetches/s%n", worker[2]);
      System.out.printf("worker, first fetches (20 items out)   : %8.1f fetches/s%n", worker[0]);
      System.out.printf("worker, steady state (0 new items out) : %8.1f fetches/s%n", worker[1]);
      System.out.printf(
          "ratio worker / (GET + parse) = %.2f first fetches, %.2f steady state%n",
          worker[0] / parse, worker[1] / parse);
      System.out.printf(
          "CPU ms per fetch (this JVM: loops or worker, broker, feed server): GET %.2f,"
              + " GET + parse %.2f, worker first %.2f, steady %.2f%n",
          getCpu, parseCpu, worker[3], worker[4]);
      System.out.printf(
          "CPU ratio (GET + parse) / worker = %.2f first fetches, %.2f steady state%n",
          parseCpu / worker[3], parseCpu / worker[4]);
      System.out.printf("CPU ms per fetch by thread (%s):%n", String.join(" | ", ThreadCpu.GROUPS));
      ThreadCpu.print("GET loop", getGroups);
      ThreadCpu.print("GET + parse loop", parseGroups);
      ThreadCpu.print("worker, first fetches", java.util.Arrays.copyOfRange(worker, 5, 10));
      ThreadCpu.print("worker, steady state", java.util.Arrays.copyOfRange(worker, 10, 15));
      System.out.printf(
          "own-thread CPU ratio (GET + parse loop) / worker = %.2f first fetches, %.2f steady"
              + " state%n",
          parseGroups[0] / worker[5], parseGroups[0] / worker[10]);
    }
    System.exit(0);
  }

  private static double loop(FeedServer web, int feeds, int n, int concurrency, boolean parse)
      throws Exception {
    var client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    var parser = new FeedConnector();
    var next = new AtomicLong();
    long t0 = System.nanoTime();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int w = 0; w < concurrency; w++) {
        pool.submit(
            () -> {
              long i;
              while ((i = next.getAndIncrement()) < n) {
                URI uri = URI.create(web.url("/feed/" + (i % feeds)));
                var response =
                    client.send(
                        HttpRequest.newBuilder(uri).header("Accept-Encoding", "gzip").build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                byte[] body = response.body();
                if (response.headers().firstValue("Content-Encoding").orElse("").equals("gzip")) {
                  body =
                      new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(body))
                          .readAllBytes();
                }
                if (parse) {
                  parser.parse(body, "application/rss+xml", uri);
                }
              }
              return null;
            });
      }
    }
    return n / ((System.nanoTime() - t0) / 1e9);
  }

  private static double[] worker(FeedServer web, int feeds, int n) throws Exception {
    String group = "bench-" + UUID.randomUUID();
    ConfigurableApplicationContext app =
        SpringApplication.run(
            FetchWorkerApplication.class,
            "--server.port=0",
            "--spring.kafka.bootstrap-servers=" + Infrastructure.kafka().bootstrapServers(),
            "--spring.kafka.consumer.group-id=" + group,
            "--freshet.kafka.registry-url=" + System.getProperty("freshet.registry.url"),
            "--freshet.kafka.auto-register=true",
            "--freshet.kafka.partitions=4",
            "--freshet.worker.consumers=4",
            "--freshet.http.allow-loopback=true",
            "--freshet.politeness.min-delay=0s",
            "--freshet.politeness.max-concurrent=64",
            "--logging.level.root=WARN");
    var topics = app.getBean(FreshetTopics.class);
    var serializer = topics.fetchRequested().valueSerde().serializer();
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    var consumerProps = new Properties();
    consumerProps.put(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-reader-" + UUID.randomUUID());
    consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    var completedReader = topics.fetchCompleted().valueSerde().deserializer();
    try (var producer =
            new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        var consumer =
            new KafkaConsumer<>(
                consumerProps, new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(FreshetTopics.FETCH_COMPLETED));
      while (consumer.assignment().isEmpty()) {
        consumer.poll(Duration.ofMillis(100));
      }
      // Warm-up, as the loops have one: the consumer group's first assignment and the JIT's
      // compiling of the worker's path would otherwise be timed in the first measured pass. Its
      // cursors are thrown away, so the measured first pass still finds every item new.
      double warmUp =
          pass(
              web,
              feeds,
              n / 4,
              producer,
              consumer,
              serializer,
              completedReader,
              new java.util.HashMap<>());
      java.util.Map<String, java.util.Map<String, String>> cursors = new java.util.HashMap<>();
      long cpu = cpuNanos();
      ThreadCpu threads = ThreadCpu.now();
      double first = pass(web, feeds, n, producer, consumer, serializer, completedReader, cursors);
      double firstCpu = (cpuNanos() - cpu) / 1e6 / n;
      double[] firstGroups = threads.perFetchSince(cpu, n);
      cpu = cpuNanos();
      threads = ThreadCpu.now();
      double steady = pass(web, feeds, n, producer, consumer, serializer, completedReader, cursors);
      double steadyCpu = (cpuNanos() - cpu) / 1e6 / n;
      double[] steadyGroups = threads.perFetchSince(cpu, n);
      double[] out = new double[15];
      System.arraycopy(new double[] {first, steady, warmUp, firstCpu, steadyCpu}, 0, out, 0, 5);
      System.arraycopy(firstGroups, 0, out, 5, 5);
      System.arraycopy(steadyGroups, 0, out, 10, 5);
      return out;
    } finally {
      app.close();
    }
  }

  /**
   * Sends {@code n} requests over the feeds, each with the feed's cursor from {@code cursors}
   * (empty the first time), waits for every completion and keeps the returned cursors; returns
   * fetches/s.
   */
  private static double pass(
      FeedServer web,
      int feeds,
      int n,
      KafkaProducer<String, byte[]> producer,
      KafkaConsumer<String, byte[]> consumer,
      org.apache.kafka.common.serialization.Serializer<FetchRequested> serializer,
      org.apache.kafka.common.serialization.Deserializer<io.freshet.schemas.avro.FetchCompleted>
          completedReader,
      java.util.Map<String, java.util.Map<String, String>> cursors) {
    String run = UUID.randomUUID().toString();
    java.util.Map<String, String> sourceOfFeed = new java.util.HashMap<>();
    List<FetchRequested> batch = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String feed = "/feed/" + (i % feeds);
      batch.add(
          Requests.feed(web.url(feed), Instant.now())
              .setRequestId(run + "-" + i)
              .setSourceId("bench-source-" + (i % feeds))
              .setCursor(cursors.getOrDefault(feed, java.util.Map.of()))
              .setNotAfter(Instant.now().plusSeconds(3600))
              .build());
      sourceOfFeed.put("bench-source-" + (i % feeds), feed);
    }
    long t0 = System.nanoTime();
    int p = 0;
    for (FetchRequested r : batch) {
      producer.send(
          new ProducerRecord<>(
              FreshetTopics.FETCH_REQUESTED,
              p++ % 4,
              "localhost",
              serializer.serialize(FreshetTopics.FETCH_REQUESTED, r)));
    }
    producer.flush();
    Set<String> done = new HashSet<>();
    long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
    while (done.size() < n && System.nanoTime() < deadline) {
      for (var record : consumer.poll(Duration.ofMillis(200))) {
        var completed = completedReader.deserialize(record.topic(), record.value());
        if (completed.getRequestId().startsWith(run)) {
          done.add(completed.getRequestId());
          if (completed.getCursor() != null) {
            cursors.put(sourceOfFeed.get(completed.getSourceId()), completed.getCursor());
          }
        }
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (done.size() < n) {
      System.out.printf("worker answered only %d of %d%n", done.size(), n);
    }
    return done.size() / seconds;
  }

  /**
   * CPU time this process has used, in nanoseconds. The machine may be shared: fetches per second
   * swing with what else runs, CPU time per fetch much less, so both are printed.
   */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /**
   * CPU time of this JVM's threads by what they do, told apart by name: the fetching side (the
   * worker's listener, parse, HTTP and producer threads and its virtual threads' carriers — or a
   * loop's, which use the same carriers and HTTP client threads), the feed server (Jetty), the
   * benchmark's own client (its producer and reader), and the rest (the broker, mostly). What no
   * Java thread accounts for (the JIT's compiler threads, GC) is the process's CPU time minus the
   * threads'. A thread that ends within a phase is not counted (none of these does).
   */
  private record ThreadCpu(java.util.Map<Long, Long> cpuByThread) {

    static final List<String> GROUPS =
        List.of("fetching side", "feed server", "bench client", "broker + rest", "GC + JIT");

    static ThreadCpu now() {
      var threads = java.lang.management.ManagementFactory.getThreadMXBean();
      java.util.Map<Long, Long> cpu = new java.util.HashMap<>();
      for (long id : threads.getAllThreadIds()) {
        long t = threads.getThreadCpuTime(id);
        if (t >= 0) {
          cpu.put(id, t);
        }
      }
      return new ThreadCpu(cpu);
    }

    /** CPU ms per fetch of each group since this snapshot (taken with process CPU {@code cpu0}). */
    double[] perFetchSince(long processCpu0, int fetches) {
      long process = cpuNanos() - processCpu0;
      var threads = java.lang.management.ManagementFactory.getThreadMXBean();
      long[] groups = new long[GROUPS.size()];
      long threadSum = 0;
      for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
        if (info == null) {
          continue;
        }
        long t = threads.getThreadCpuTime(info.getThreadId());
        if (t < 0) {
          continue;
        }
        long used = t - cpuByThread.getOrDefault(info.getThreadId(), 0L);
        groups[group(info.getThreadName())] += used;
        threadSum += used;
      }
      groups[GROUPS.size() - 1] = Math.max(0, process - threadSum);
      double[] perFetch = new double[groups.length];
      for (int i = 0; i < groups.length; i++) {
        perFetch[i] = groups[i] / 1e6 / fetches;
      }
      return perFetch;
    }

    private static int group(String name) {
      if (name.startsWith("qtp")) {
        return 1;
      }
      if (name.equals("main")
          || name.startsWith("kafka-producer-network-thread | producer-")
          || name.contains("| bench-reader-")) {
        return 2;
      }
      if (name.startsWith("freshet-")
          || name.startsWith("ForkJoinPool")
          || name.startsWith("fetch-requested")
          || name.startsWith("HttpClient")
          || name.startsWith("http-deadlines")
          || name.contains("| fetch-worker")
          || name.startsWith("kafka-coordinator-heartbeat-thread | bench-")) {
        return 0;
      }
      return 3;
    }

    static void print(String phase, double[] perFetch) {
      StringBuilder line = new StringBuilder(String.format("  %-22s:", phase));
      for (double v : perFetch) {
        line.append(String.format(" %6.2f", v));
      }
      System.out.println(line);
    }
  }

  /** An RSS 2.0 feed of 20 items, about 30 KB, like a news site's. */
  static String realisticFeed() {
    StringBuilder out =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\""
                + " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>News</title>"
                + "<link>https://news.example/</link><description>All the news</description>");
    String paragraph =
        "<p>The council met on Tuesday to discuss the new cycling lanes, the library's opening"
            + " hours and the budget for next year. Residents asked questions about parking, the"
            + " market square and the schedule of the works; the mayor answered most of them.</p>";
    for (int i = 0; i < 20; i++) {
      out.append("<item><title>Story number ")
          .append(i)
          .append(": council meets again</title>")
          .append("<link>https://news.example/story/")
          .append(i)
          .append("?utm_source=rss</link>")
          .append("<guid isPermaLink=\"false\">story-")
          .append(i)
          .append("</guid>")
          .append("<pubDate>Sat, 21 Nov 2026 ")
          .append(10 + i % 10)
          .append(":00:00 GMT</pubDate>")
          .append("<dc:creator>Reporter ")
          .append(i % 3)
          .append("</dc:creator>")
          .append("<description><![CDATA[")
          .append(paragraph.repeat(4))
          .append("]]></description></item>");
    }
    return out.append("</channel></rss>").toString();
  }
}
