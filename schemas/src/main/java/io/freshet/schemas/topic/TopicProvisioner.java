package io.freshet.schemas.topic;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one owner of Freshet's topics: creates every missing topic with the partitions, replication,
 * {@code min.insync.replicas} and topic configuration of one configuration, and checks topics that
 * exist against it. A topic with fewer partitions than configured is a warning (consumers beyond
 * its partitions stay idle; adding partitions moves keys, so it is an operator's decision, never
 * done here); more partitions is fine.
 *
 * <p>Run as a deployment step ({@link #main}: the local stack runs it before the services, a
 * compose file or Kubernetes job runs it the same way), or by a service at start-up when {@code
 * freshet.kafka.create-topics} is on. Dead-letter topics are not created here: each consumer group
 * creates its own on its first dead letter, being its only writer.
 */
public final class TopicProvisioner {

  private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);

  /**
   * What a run did.
   *
   * @param created topics created now
   * @param checked topics that existed, with their partition counts
   * @param warnings one line per existing topic that does not match the configuration
   */
  public record Report(List<String> created, Map<String, Integer> checked, List<String> warnings) {}

  /**
   * The configuration every topic is created with.
   *
   * @param partitions partitions of each topic
   * @param replicationFactor replicas of each partition
   * @param minInsyncReplicas {@code min.insync.replicas} set on each topic; 0 leaves it to the
   *     brokers' default
   */
  public record Settings(int partitions, short replicationFactor, int minInsyncReplicas) {
    public Settings {
      if (partitions < 1 || replicationFactor < 1) {
        throw new IllegalArgumentException("partitions and replication factor must be at least 1");
      }
    }
  }

  private TopicProvisioner() {}

  /** The admin requests for Freshet's topics under {@code settings}. */
  public static List<NewTopic> freshetTopics(FreshetTopics topics, Settings settings) {
    return topics.all().stream()
        .map(
            t ->
                t.withPartitions(settings.partitions())
                    .newTopic(settings.replicationFactor(), settings.minInsyncReplicas()))
        .toList();
  }

  /**
   * Creates what is missing of {@code wanted}, checks the rest.
   *
   * @throws TimeoutException when the cluster does not answer within {@code timeout}
   * @throws ExecutionException when it refuses (authorisation, invalid configuration)
   */
  public static Report provision(Admin admin, Collection<NewTopic> wanted, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    return run(admin, wanted, timeout, true);
  }

  /**
   * Checks the topics of {@code wanted} that exist, creating nothing; a missing one is a warning.
   *
   * @throws TimeoutException when the cluster does not answer within {@code timeout}
   * @throws ExecutionException when it refuses
   */
  public static Report check(Admin admin, Collection<NewTopic> wanted, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    return run(admin, wanted, timeout, false);
  }

  private static Report run(
      Admin admin, Collection<NewTopic> wanted, Duration timeout, boolean create)
      throws ExecutionException, InterruptedException, TimeoutException {
    long ms = timeout.toMillis();
    Set<String> existing = admin.listTopics().names().get(ms, TimeUnit.MILLISECONDS);
    List<NewTopic> missing = new ArrayList<>();
    List<String> present = new ArrayList<>();
    for (NewTopic t : wanted) {
      if (existing.contains(t.name())) {
        present.add(t.name());
      } else {
        missing.add(t);
      }
    }
    List<String> created = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    if (!create) {
      for (NewTopic t : missing) {
        String warning =
            "topic " + t.name() + " does not exist: run the topic provisioner (provision-topics)";
        warnings.add(warning);
        log.warn(warning);
      }
      missing.clear();
    }
    for (NewTopic t : missing) {
      try {
        admin.createTopics(List.of(t)).all().get(ms, TimeUnit.MILLISECONDS);
        created.add(t.name());
        log.info(
            "created topic {} ({} partitions, replication {})",
            t.name(),
            t.numPartitions(),
            t.replicationFactor());
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
        present.add(t.name()); // another provisioner won the race: check it like the others
      }
    }
    Map<String, Integer> checked = new java.util.TreeMap<>();
    if (!present.isEmpty()) {
      Map<String, TopicDescription> described =
          admin.describeTopics(present).allTopicNames().get(ms, TimeUnit.MILLISECONDS);
      for (NewTopic t : wanted) {
        TopicDescription d = described.get(t.name());
        if (d == null) {
          continue;
        }
        int partitions = d.partitions().size();
        checked.put(t.name(), partitions);
        int configured = t.numPartitions() > 0 ? t.numPartitions() : partitions;
        if (partitions < configured) {
          String warning =
              "topic "
                  + t.name()
                  + " has "
                  + partitions
                  + " partitions, configured "
                  + configured
                  + ": at most "
                  + partitions
                  + " consumers of a group work, the rest stay idle (adding partitions moves keys"
                  + " between them: an operator's decision, see docs/operations.md)";
          warnings.add(warning);
          log.warn(warning);
        }
        int replicas = d.partitions().isEmpty() ? 0 : d.partitions().get(0).replicas().size();
        int wantedReplicas = t.replicationFactor() > 0 ? t.replicationFactor() : replicas;
        if (replicas < wantedReplicas) {
          String warning =
              "topic "
                  + t.name()
                  + " has replication "
                  + replicas
                  + ", configured "
                  + wantedReplicas
                  + ": a broker's loss can lose acknowledged records";
          warnings.add(warning);
          log.warn(warning);
        }
      }
    }
    return new Report(created, checked, warnings);
  }

  /**
   * The deployment step: {@code --bootstrap HOST:PORT[,...]} (or env {@code
   * KAFKA_BOOTSTRAP_SERVERS}), {@code --partitions N} ({@code FRESHET_KAFKA_PARTITIONS}, 12),
   * {@code --replication-factor N} ({@code FRESHET_KAFKA_REPLICATION_FACTOR}, 1), {@code
   * --min-insync-replicas N} ({@code FRESHET_KAFKA_MIN_INSYNC_REPLICAS}, 0), {@code
   * --tenant-content-topics T,...} ({@code FRESHET_KAFKA_TENANT_CONTENT_TOPICS}); {@code --help}
   * lists them. Prints one line per topic. Exit 0 when every topic exists (warnings included), 1
   * when the cluster refused or did not answer within 60 s, 2 on bad arguments. Needs picocli on
   * the class path (an optional dependency of this module: the services' jars carry it).
   */
  public static void main(String[] args) {
    Map<String, String> env = new java.util.HashMap<>();
    putIfSet(env, "KAFKA_BOOTSTRAP_SERVERS", System.getenv("KAFKA_BOOTSTRAP_SERVERS"));
    putIfSet(env, "FRESHET_KAFKA_PARTITIONS", System.getenv("FRESHET_KAFKA_PARTITIONS"));
    putIfSet(
        env, "FRESHET_KAFKA_REPLICATION_FACTOR", System.getenv("FRESHET_KAFKA_REPLICATION_FACTOR"));
    putIfSet(
        env,
        "FRESHET_KAFKA_MIN_INSYNC_REPLICAS",
        System.getenv("FRESHET_KAFKA_MIN_INSYNC_REPLICAS"));
    putIfSet(
        env,
        "FRESHET_KAFKA_TENANT_CONTENT_TOPICS",
        System.getenv("FRESHET_KAFKA_TENANT_CONTENT_TOPICS"));
    System.exit(run(args, env, System.out, System.err));
  }

  private static void putIfSet(Map<String, String> env, String name, String value) {
    if (value != null && !value.isBlank()) {
      env.put(name, value);
    }
  }

  /** The command line; {@code env} holds the variables that default the options. */
  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    return ProvisionTopics.run(args, env, out, err);
  }

  /**
   * {@code provision-topics}: the command line of {@link #main}, apart so that picocli is loaded
   * only when it runs.
   */
  @Command(
      name = "provision-topics",
      sortOptions = false,
      sortSynopsis = false,
      usageHelpWidth = 100,
      description = {
        "Creates every missing Freshet topic with the configured partitions, replication and"
            + " min.insync.replicas, and checks those that exist (fewer partitions or replicas"
            + " than configured is a warning). Dead-letter topics are not created here. Each"
            + " option defaults to its environment variable when set.",
        ""
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:every topic exists (warnings included)",
        "1:the cluster refused, or did not answer within 60 s",
        "2:bad arguments"
      })
  static final class ProvisionTopics implements Callable<Integer> {

    /** The environment variable of each option. */
    private static final Map<String, String> ENV =
        Map.of(
            "--bootstrap", "KAFKA_BOOTSTRAP_SERVERS",
            "--partitions", "FRESHET_KAFKA_PARTITIONS",
            "--replication-factor", "FRESHET_KAFKA_REPLICATION_FACTOR",
            "--min-insync-replicas", "FRESHET_KAFKA_MIN_INSYNC_REPLICAS",
            "--tenant-content-topics", "FRESHET_KAFKA_TENANT_CONTENT_TOPICS");

    @Spec CommandSpec spec;

    @Option(
        names = "--bootstrap",
        paramLabel = "HOST:PORT[,...]",
        defaultValue = "localhost:9092",
        description =
            "Kafka bootstrap servers (default: ${DEFAULT-VALUE}, from KAFKA_BOOTSTRAP_SERVERS"
                + " when set)")
    String bootstrap;

    @Option(
        names = "--partitions",
        paramLabel = "N",
        defaultValue = "12",
        description =
            "partitions of each topic (default: ${DEFAULT-VALUE}, from FRESHET_KAFKA_PARTITIONS"
                + " when set)")
    int partitions;

    @Option(
        names = "--replication-factor",
        paramLabel = "N",
        defaultValue = "1",
        description =
            "replicas of each partition (default: ${DEFAULT-VALUE}, from"
                + " FRESHET_KAFKA_REPLICATION_FACTOR when set)")
    short replication;

    @Option(
        names = "--min-insync-replicas",
        paramLabel = "N",
        defaultValue = "0",
        description =
            "min.insync.replicas of each topic, 0 = the brokers' default (default:"
                + " ${DEFAULT-VALUE}, from FRESHET_KAFKA_MIN_INSYNC_REPLICAS when set)")
    int minIsr;

    @Option(
        names = "--tenant-content-topics",
        paramLabel = "TENANT[,...]",
        split = ",",
        description =
            "tenants that get a content topic of their own, freshet.content.fetched.v1.<tenant>"
                + " (default: none, from FRESHET_KAFKA_TENANT_CONTENT_TOPICS when set)")
    List<String> tenantContentTopics = new ArrayList<>();

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;

    private final PrintStream out;
    private final PrintStream err;

    private ProvisionTopics(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
      CommandLine cli = new CommandLine(new ProvisionTopics(out, err));
      cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
      cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
      cli.setDefaultValueProvider(
          arg -> {
            String name = arg instanceof OptionSpec o ? ENV.get(o.longestName()) : null;
            return name == null ? null : env.get(name);
          });
      cli.setParameterExceptionHandler(
          (e, a) -> {
            String m = e.getMessage().replace(System.lineSeparator(), " ").replace('\n', ' ');
            if (e instanceof UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
              m += "; did you mean " + String.join(" or ", u.getSuggestions()) + "?";
            }
            if (e.getArgSpec() instanceof OptionSpec o
                && ENV.containsKey(o.longestName())
                && Arrays.stream(a).noneMatch(arg -> arg.startsWith(o.longestName()))) {
              m += " (from " + ENV.get(o.longestName()) + ")"; // a bad environment value
            }
            err.println("provision-topics: " + m.trim() + " (provision-topics --help)");
            return 2;
          });
      return cli.execute(args);
    }

    @Override
    public Integer call() {
      Settings settings;
      FreshetTopics topics;
      try {
        settings = new Settings(partitions, replication, minIsr);
        topics =
            FreshetTopics.create(
                io.freshet.schemas.serde.RegistrySettings.of("http://unused", false),
                FreshetTopics.DEFAULT_PARTITIONS,
                tenantContentTopics.stream().map(String::strip).filter(t -> !t.isEmpty()).toList());
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      var props = new Properties();
      props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
      try (Admin admin = Admin.create(props)) {
        var wanted = freshetTopics(topics, settings);
        Report report = provision(admin, wanted, Duration.ofSeconds(60));
        report.created().forEach(t -> out.println(t + ": created"));
        report.checked().forEach((t, p) -> out.println(t + ": exists, " + p + " partitions"));
        report.warnings().forEach(w -> out.println("warning: " + w));
        return 0;
      } catch (ExecutionException e) {
        err.println("provision-topics: the cluster refused: " + e.getCause());
        return 1;
      } catch (TimeoutException e) {
        err.println("provision-topics: no answer from " + bootstrap + " within 60 s");
        return 1;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }
    }
  }
}
