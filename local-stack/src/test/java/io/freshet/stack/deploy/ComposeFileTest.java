package io.freshet.stack.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml without a Docker engine: valid against the Compose Specification's JSON schema
 * once interpolated, its secrets required from the environment, every variable it sets for a
 * service read by that service, and the services, Dockerfiles, Kafka cluster and Prometheus
 * agreeing with each other and with the versions the build pins.
 */
class ComposeFileTest {

  private static final Path ROOT = FreshetProject.root();
  private static final Path COMPOSE = ROOT.resolve("docker-compose.yml");
  private static final ObjectMapper JACKSON2 = new ObjectMapper();
  private static final List<String> BROKERS = List.of("kafka-1", "kafka-2", "kafka-3");

  // --- the file itself ----------------------------------------------------------------------

  @Test
  void isValidAgainstTheComposeSpecificationOnceInterpolated() throws IOException {
    Set<ValidationMessage> errors = composeSchema().validate(asJson(compose()));
    assertThat(errors).as("schema errors of %s", COMPOSE).isEmpty();
  }

  @Test
  void theSchemaCheckRejectsWhatComposeWouldReject() throws IOException {
    ObjectNode broken = (ObjectNode) asJson(compose());
    ObjectNode worker = (ObjectNode) broken.path("services").path("fetch-worker");
    worker.putObject("helthcheck").put("interval", "10s");
    ((ObjectNode) worker.path("depends_on").path("postgres")).put("condition", "service_ready");
    Set<ValidationMessage> errors = composeSchema().validate(broken);
    assertThat(errors.toString())
        .contains("fetch-worker: property 'helthcheck' is not defined")
        .contains(
            "fetch-worker.depends_on.postgres.condition: does not have a value in the enumeration");
  }

  @Test
  void secretsAreRequiredFromTheEnvironmentAndListedInEnvExample() throws IOException {
    var lenient = ComposeInterpolation.lenient(envExample());
    ComposeFile.load(COMPOSE, lenient);
    Set<String> secrets = envExampleSecrets();
    assertThat(secrets)
        .contains(
            "POSTGRES_PASSWORD",
            "FRESHET_DB_PASSWORD",
            "REGISTRY_DB_PASSWORD",
            "FRESHET_ADMIN_KEY",
            "FRESHET_CREDENTIALS_KEY");
    assertThat(new TreeSet<>(lenient.required().keySet())).isEqualTo(new TreeSet<>(secrets));
    assertThat(new TreeSet<>(lenient.missingRequired())).isEqualTo(new TreeSet<>(secrets));
    assertThatThrownBy(() -> ComposeFile.load(COMPOSE, ComposeInterpolation.strict(Map.of())))
        .isInstanceOf(ComposeInterpolation.MissingVariableException.class);
  }

  @Test
  void noSecretHasALiteralValueOrADefault() throws IOException {
    Pattern secretName = Pattern.compile(".*(PASSWORD|TOKEN|SECRET|_KEY)$");
    Pattern fromEnvironment = Pattern.compile("\\$\\{[A-Z0-9_]+(:\\?[^}]*|\\?[^}]*|:-|-)}");
    List<String> literal = new ArrayList<>();
    Map<String, Object> raw = ComposeFile.yaml().load(Files.readString(COMPOSE));
    Map<String, Object> services = ComposeFile.map(raw.get("services"));
    services.forEach(
        (name, s) -> {
          Object env = ComposeFile.map(s) == null ? null : ComposeFile.map(s).get("environment");
          if (env instanceof Map<?, ?> m) {
            m.forEach(
                (k, v) -> {
                  if (secretName.matcher(String.valueOf(k)).matches()
                      && !fromEnvironment.matcher(String.valueOf(v)).matches()) {
                    literal.add(name + "." + k + " = " + v);
                  }
                });
          }
        });
    assertThat(literal).as("secrets set literally or with a default").isEmpty();
  }

  @Test
  void everyOptionalVariableOfEnvExampleIsOneTheComposeFileUses() throws IOException {
    var interpolation = ComposeInterpolation.strict(withTestSecrets());
    ComposeFile.load(COMPOSE, interpolation);
    Set<String> listed = new TreeSet<>();
    for (String line : Files.readAllLines(ROOT.resolve(".env.example"))) {
      Matcher m = Pattern.compile("^#?\\s*([A-Z][A-Z0-9_]*)=").matcher(line);
      if (m.find()) {
        listed.add(m.group(1));
      }
    }
    assertThat(listed).isNotEmpty();
    assertThat(interpolation.referenced()).containsAll(listed);
  }

  @Test
  void dependenciesAndNamedVolumesAreDeclared() throws IOException {
    ComposeFile compose = compose();
    Set<String> volumes = ComposeFile.map(compose.model().get("volumes")).keySet();
    for (String service : compose.serviceNames()) {
      Object dependsOn = compose.service(service).get("depends_on");
      if (dependsOn instanceof Map<?, ?> m) {
        assertThat(compose.serviceNames()).as(service + " depends on").containsAll(keys(m));
      }
      for (String v : ComposeFile.stringList(compose.service(service).get("volumes"))) {
        String source = v.split(":")[0];
        if (!source.startsWith(".") && !source.startsWith("/")) {
          assertThat(volumes).as(service + " mounts volume").contains(source);
        } else {
          assertThat(ROOT.resolve(source).normalize()).as(service + " mounts file").exists();
        }
      }
    }
  }

  // --- every variable set is one the service reads -----------------------------------------

  @Test
  void everyVariableSetForAServiceIsOneThatServiceReads() throws IOException {
    assumeExecJarsBuilt();
    var result = new ComposeEnvironmentCheck(ROOT).check(compose());
    result
        .bindings()
        .forEach((s, b) -> b.forEach((v, p) -> System.out.println(s + " " + v + " -> " + p)));
    assertThat(result.violations()).isEmpty();
    assertThat(result.bindings().keySet())
        .containsAll(FreshetProject.SERVICES)
        .contains("schema-init")
        .containsAll(BROKERS);
    assertThat(result.unchecked()).containsExactlyInAnyOrder("postgres", "registry");
    assertThat(result.bindings().get("scheduler-producer"))
        .containsEntry("FRESHET_SCHEDULER_MAX_IN_FLIGHT", "freshet.scheduler.max-in-flight")
        .containsEntry(
            "FRESHET_SECURITY_ADMIN_KEY", "${FRESHET_SECURITY_ADMIN_KEY} in application.yml")
        .doesNotContainKeys(
            "FRESHET_API_TOKEN", "FRESHET_API_READ_TOKEN", "FRESHET_SECURITY_PUBLIC_PROMETHEUS");
  }

  @Test
  void misspeltAndMisplacedVariablesAreCaught() throws IOException {
    assumeExecJarsBuilt();
    Path fixture = Path.of("src/test/resources/deploy/misspelt-compose.yml").toAbsolutePath();
    var result =
        new ComposeEnvironmentCheck(ROOT)
            .check(ComposeFile.load(fixture, ComposeInterpolation.strict(Map.of())));
    Set<String> caught = new TreeSet<>();
    result.violations().forEach(v -> caught.add(v.service() + " " + v.variable()));
    assertThat(caught)
        .containsExactlyInAnyOrder(
            "kafka-1 KAFKA_MIN_INSYNC_REPLICA",
            "scheduler-producer FRESHET_SCHEDULER_BATCH_SIZ",
            "scheduler-producer SPRING_KAFKA_BOOTSTRAP_SERVER",
            "fetch-worker SPRING_DATASOURCE_URL",
            "fetch-worker FRESHET_API_TOKEN",
            "stats-aggregator FRESHET_STATS_REPLICATION_FACTOR",
            "schema-init REGISTRY_URL");
  }

  /**
   * The relaxed-binding rules against real data: every key of each service's own application.yml,
   * written as an environment variable, is found (a rule or metadata gap would show here).
   */
  @Test
  void everyKeyOfEachApplicationYmlIsFoundAsAnEnvironmentVariable() {
    assumeExecJarsBuilt();
    var check = new ComposeEnvironmentCheck(ROOT);
    List<String> unbound = new ArrayList<>();
    for (String module : FreshetProject.SERVICES) {
      SpringServiceVariables vars = check.springVariables(module);
      assertThat(vars.propertyCount()).as(module + " properties").isGreaterThan(500);
      for (String key : vars.applicationYmlKeys()) {
        String env = SpringServiceVariables.envNames(key).getLast();
        if (vars.binding(env).isEmpty()) {
          unbound.add(module + ": " + key + " (" + env + ")");
        }
      }
    }
    assertThat(unbound).isEmpty();
  }

  // --- Kafka -----------------------------------------------------------------------------------

  @Test
  void kafkaIsAThreeNodeKraftQuorumOfThePinnedVersionWithReplicationThreeAndMinIsrTwo()
      throws IOException {
    ComposeFile compose = compose();
    String kafkaVersion = FreshetProject.pomProperty("kafka.version");
    Set<String> voters = new TreeSet<>();
    Set<String> clusterIds = new TreeSet<>();
    for (String broker : BROKERS) {
      assertThat(compose.service(broker).get("image")).isEqualTo("apache/kafka:" + kafkaVersion);
      Map<String, String> env = compose.environment(broker);
      assertThat(env)
          .containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
          .containsEntry("KAFKA_DEFAULT_REPLICATION_FACTOR", "3")
          .containsEntry("KAFKA_MIN_INSYNC_REPLICAS", "2")
          .containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "3")
          .containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "3")
          .containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "2")
          .containsEntry("KAFKA_UNCLEAN_LEADER_ELECTION_ENABLE", "false");
      voters.add(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS"));
      clusterIds.add(env.get("CLUSTER_ID"));
      assertThat(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS"))
          .contains(env.get("KAFKA_NODE_ID") + "@" + broker + ":9093");
      assertThat(env.get("KAFKA_ADVERTISED_LISTENERS")).contains("INTERNAL://" + broker + ":9092");
      assertThat(compose.service(broker).get("hostname")).isEqualTo(broker);
    }
    assertThat(voters).hasSize(1);
    assertThat(voters.iterator().next().split(",")).hasSize(BROKERS.size());
    assertThat(clusterIds).hasSize(1);
  }

  @Test
  void oneStepCreatesTheTopicsReplicatedSoOneBrokerMayBeDownAndTheServicesAgreeWithIt()
      throws IOException {
    ComposeFile compose = compose();
    Map<String, String> init = compose.environment("topics-init");
    assertThat(String.valueOf(compose.service("topics-init").get("entrypoint")))
        .contains("io.freshet.schemas.topic.TopicProvisioner");
    int rf = Integer.parseInt(init.get("FRESHET_KAFKA_REPLICATION_FACTOR"));
    int minIsr = Integer.parseInt(init.get("FRESHET_KAFKA_MIN_INSYNC_REPLICAS"));
    assertThat(rf).as("replication").isLessThanOrEqualTo(BROKERS.size());
    assertThat(rf - 1).as("writes go on with one broker down").isGreaterThanOrEqualTo(minIsr);
    for (String service : FreshetProject.SERVICES) {
      Map<String, String> env = compose.environment(service);
      assertThat(env.get("FRESHET_KAFKA_CREATE_TOPICS"))
          .as(service + " leaves topic creation to topics-init")
          .isEqualTo("false");
      assertThat(env.get("FRESHET_KAFKA_PARTITIONS"))
          .as(service + " partitions (its start-up check)")
          .isEqualTo(init.get("FRESHET_KAFKA_PARTITIONS"));
      assertThat(env.get("FRESHET_KAFKA_REPLICATION_FACTOR"))
          .as(service + " replication (its dead-letter topics and the changelog)")
          .isEqualTo(init.get("FRESHET_KAFKA_REPLICATION_FACTOR"));
      assertThat(String.valueOf(compose.service(service).get("depends_on")))
          .as(service + " starts after topics-init")
          .contains("topics-init");
      Set<String> bootstrap = Set.of(env.get("KAFKA_BOOTSTRAP_SERVERS").split(","));
      for (String broker : BROKERS) {
        assertThat(bootstrap).as(service + " bootstrap").contains(broker + ":9092");
      }
    }
  }

  // --- registry, database ----------------------------------------------------------------------

  @Test
  void theRegistryAndDatabaseAreThePinnedVersionsAndTheServicesReachThem() throws IOException {
    ComposeFile compose = compose();
    assertThat(compose.service("registry").get("image"))
        .isEqualTo(
            "apicurio/apicurio-registry:"
                + FreshetProject.pomProperty("apicurio-registry.version"));
    String postgresMajor = FreshetProject.pomProperty("postgres-binaries.version").split("\\.")[0];
    assertThat(String.valueOf(compose.service("postgres").get("image")))
        .startsWith("postgres:" + postgresMajor + ".");
    for (String service : FreshetProject.SERVICES) {
      assertThat(compose.environment(service).get("REGISTRY_URL"))
          .isEqualTo("http://registry:8080/apis/registry/v2");
    }
    assertThat(compose.environment("schema-init").get("FRESHET_REGISTRY_CCOMPAT_URL"))
        .isEqualTo("http://registry:8080/apis/ccompat/v7");
    for (String service : List.of("scheduler-producer", "content-sink")) {
      assertThat(compose.environment(service).get("DATABASE_URL"))
          .isEqualTo("jdbc:postgresql://postgres:5432/freshet");
    }
    String init = Files.readString(ROOT.resolve("deploy/postgres/init-databases.sh"));
    assertThat(init)
        .contains("CREATE DATABASE freshet OWNER freshet")
        .contains("CREATE DATABASE registry");
    assertThat(compose.environment("registry").get("APICURIO_DATASOURCE_URL"))
        .isEqualTo("jdbc:postgresql://postgres:5432/registry");
  }

  @Test
  void producersStartOnlyAfterTheSchemasAreRegistered() throws IOException {
    ComposeFile compose = compose();
    for (String service : FreshetProject.SERVICES) {
      Map<String, Object> dependsOn = ComposeFile.map(compose.service(service).get("depends_on"));
      assertThat(ComposeFile.map(dependsOn.get("schema-init")))
          .containsEntry("condition", "service_completed_successfully");
      for (String broker : BROKERS) {
        assertThat(ComposeFile.map(dependsOn.get(broker)))
            .containsEntry("condition", "service_healthy");
      }
    }
    assertThat(compose.entrypoint("schema-init"))
        .contains("-Dloader.main=io.freshet.schemas.registry.SchemaRegistrar");
  }

  // --- Dockerfiles -----------------------------------------------------------------------------

  @Test
  void everyServiceIsBuiltFromTheOneDockerfileOnAPinnedJre21AsANonRootUser() throws IOException {
    ComposeFile compose = compose();
    Dockerfile dockerfile = Dockerfile.read(ROOT.resolve("Dockerfile"));
    assertThat(dockerfile.baseImage())
        .as("base image: JRE 21, pinned to a release")
        .matches("eclipse-temurin:21\\.\\d+\\.\\d+_\\d+-jre(-[a-z]+)?");
    assertThat(dockerfile.user()).as("user").isNotNull().isNotIn("root", "0", "0:0");
    assertThat(dockerfile.copiedSources()).containsExactly("${MODULE}/target/${MODULE}-*-exec.jar");
    List<String> ignore = Files.readAllLines(ROOT.resolve(".dockerignore"));
    assertThat(ignore).contains("*");
    for (String service : FreshetProject.SERVICES) {
      assertThat(compose.buildContext(service)).contains(ROOT);
      assertThat(compose.dockerfile(service)).contains(ROOT.resolve("Dockerfile"));
      assertThat(compose.buildModule(service)).contains(service);
      assertThat(ignore).contains("!" + service + "/target/" + service + "-*-exec.jar");
    }
    assertThat(compose.buildArg("stats-aggregator", "MAX_RAM_PERCENTAGE"))
        .as("half of the container's memory left to RocksDB")
        .isEqualTo("50");
    for (Path module : FreshetProject.SERVICES.stream().map(ROOT::resolve).toList()) {
      assertThat(module.resolve("Dockerfile")).as("no copy per module").doesNotExist();
    }
  }

  @Test
  void eachServiceExposesHealthChecksPublishesAndIsScrapedOnThePortItListensOn()
      throws IOException {
    assumeExecJarsBuilt();
    ComposeFile compose = compose();
    var check = new ComposeEnvironmentCheck(ROOT);
    Map<String, Object> prometheus =
        ComposeFile.yaml().load(Files.readString(ROOT.resolve("deploy/prometheus/prometheus.yml")));
    for (String service : FreshetProject.SERVICES) {
      Dockerfile dockerfile = Dockerfile.read(compose.dockerfile(service).orElseThrow());
      Map<String, String> env = new LinkedHashMap<>(dockerfile.env());
      env.putAll(compose.environment(service));
      int port = listeningPort(check.springVariables(service), env);
      assertThat(dockerfile.exposedPorts()).as(service + " EXPOSE").containsExactly(port);
      assertThat(dockerfile.healthcheck())
          .as(service + " HEALTHCHECK")
          .containsPattern(
              "http://(127\\.0\\.0\\.1|localhost):" + port + "/actuator/health/readiness");
      assertThat(compose.publishedContainerPorts(service)).allMatch(p -> p == port);
      int management = managementPort(check.springVariables(service), env);
      assertThat(management).as(service + " management port").isNotEqualTo(port);
      assertThat(compose.publishedContainerPorts(service))
          .as(service + ": the management port is never published")
          .doesNotContain(management);
      assertThat(scrapeTarget(prometheus, service))
          .as(service + " scrape target: its management port")
          .isEqualTo(service + ":" + management + "/actuator/prometheus");
    }
    assertThat(compose.environment("stats-aggregator").get("ADVERTISED_HOST"))
        .isEqualTo(
            "stats-aggregator:"
                + listeningPort(
                    check.springVariables("stats-aggregator"),
                    Dockerfile.read(compose.dockerfile("stats-aggregator").orElseThrow()).env()));
  }

  @Test
  void prometheusLoadsTheAlertRulesItIsGiven() throws IOException {
    ComposeFile compose = compose();
    Map<String, Object> prometheus =
        ComposeFile.yaml().load(Files.readString(ROOT.resolve("deploy/prometheus/prometheus.yml")));
    List<String> mounts = ComposeFile.stringList(compose.service("prometheus").get("volumes"));
    for (String ruleFile : ComposeFile.stringList(prometheus.get("rule_files"))) {
      assertThat(mounts).anyMatch(m -> m.endsWith(":" + ruleFile + ":ro"));
    }
    assertThat(mounts)
        .contains("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** server.port as Spring resolves it: SERVER_PORT, else the application.yml placeholder. */
  static int listeningPort(SpringServiceVariables vars, Map<String, String> env) {
    if (env.containsKey("SERVER_PORT")) {
      return Integer.parseInt(env.get("SERVER_PORT"));
    }
    Object port = vars.applicationYmlValue("server.port");
    Matcher m = Pattern.compile("\\$\\{([A-Z_]+):(\\d+)}").matcher(String.valueOf(port));
    if (m.matches()) {
      return Integer.parseInt(env.getOrDefault(m.group(1), m.group(2)));
    }
    return Integer.parseInt(String.valueOf(port));
  }

  /** management.server.port as Spring resolves it: MANAGEMENT_PORT, else its default. */
  static int managementPort(SpringServiceVariables vars, Map<String, String> env) {
    Object port = vars.applicationYmlValue("management.server.port");
    Matcher m = Pattern.compile("\\$\\{([A-Z_]+):(\\d+)}").matcher(String.valueOf(port));
    assertThat(m.matches()).as("management.server.port " + port).isTrue();
    return Integer.parseInt(env.getOrDefault(m.group(1), m.group(2)));
  }

  private static String scrapeTarget(Map<String, Object> prometheus, String job) {
    for (Object c : (List<?>) prometheus.get("scrape_configs")) {
      Map<String, Object> config = ComposeFile.map(c);
      if (job.equals(config.get("job_name"))) {
        Map<String, Object> dns =
            ComposeFile.map(((List<?>) config.get("dns_sd_configs")).getFirst());
        List<String> names = ComposeFile.stringList(dns.get("names"));
        assertThat(names).containsExactly(job);
        return names.getFirst() + ":" + dns.get("port") + config.get("metrics_path");
      }
    }
    return null;
  }

  private static void assumeExecJarsBuilt() {
    assumeTrue(
        FreshetProject.execJarsBuilt(),
        "the services' exec jars are not built: these checks run in `./mvnw verify` (package comes"
            + " first), not in `./mvnw test`");
  }

  private static ComposeFile compose() throws IOException {
    return ComposeFile.load(COMPOSE, ComposeInterpolation.strict(withTestSecrets()));
  }

  /** .env.example with a test value in every secret (their values there are empty). */
  private static Map<String, String> withTestSecrets() throws IOException {
    Map<String, String> env = envExample();
    for (String secret : envExampleSecrets()) {
      env.put(secret, "test-" + secret.toLowerCase(java.util.Locale.ROOT));
    }
    return env;
  }

  /** The uncommented KEY=VALUE lines of .env.example. */
  private static Map<String, String> envExample() throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : Files.readAllLines(ROOT.resolve(".env.example"))) {
      if (!line.isBlank() && !line.startsWith("#") && line.contains("=")) {
        env.put(line.substring(0, line.indexOf('=')).trim(), line.substring(line.indexOf('=') + 1));
      }
    }
    return env;
  }

  private static Set<String> envExampleSecrets() throws IOException {
    Set<String> secrets = new LinkedHashSet<>();
    envExample()
        .forEach(
            (k, v) -> {
              if (v.isBlank()) {
                secrets.add(k);
              }
            });
    return secrets;
  }

  private static JsonSchema composeSchema() throws IOException {
    try (InputStream in = ComposeFileTest.class.getResourceAsStream("/deploy/compose-spec.json")) {
      ObjectNode schema = (ObjectNode) JACKSON2.readTree(in);
      // "$id": "compose_spec.json" is relative, which the validator refuses as a base URI; every
      // $ref in the schema is local ("#/definitions/..."), so the id is not needed.
      schema.remove("$id");
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7).getSchema(schema);
    }
  }

  private static JsonNode asJson(ComposeFile compose) {
    return JACKSON2.valueToTree(compose.model());
  }

  private static Set<String> keys(Map<?, ?> m) {
    Set<String> keys = new TreeSet<>();
    m.keySet().forEach(k -> keys.add(String.valueOf(k)));
    return keys;
  }
}
