package io.freshet.stack.deploy;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.server.config.AbstractKafkaConfig;

/**
 * The environment variables the {@code apache/kafka} image turns into broker settings: {@code
 * KAFKA_} and the property name with {@code .} as {@code _}, {@code _} as {@code __} and {@code -}
 * as {@code ___} (the image's documented rule), checked against the broker's own configuration
 * definition ({@link AbstractKafkaConfig#CONFIG_DEF}, from the same Kafka version as the image),
 * plus the few variables its start scripts read.
 */
final class KafkaBrokerVariables {

  /** Variables the image's scripts read themselves, and where. */
  static final Map<String, String> SCRIPT_VARIABLES =
      Map.of(
          "CLUSTER_ID", "the image's launch script: formats the log directory with this cluster id",
          "KAFKA_HEAP_OPTS", "kafka-server-start.sh: the broker JVM's heap flags");

  private static final Set<String> BROKER_CONFIGS = AbstractKafkaConfig.CONFIG_DEF.names();

  private KafkaBrokerVariables() {}

  /** The broker property {@code variable} sets, or what reads it; empty when nothing does. */
  static Optional<String> binding(String variable) {
    if (SCRIPT_VARIABLES.containsKey(variable)) {
      return Optional.of(SCRIPT_VARIABLES.get(variable));
    }
    if (!variable.startsWith("KAFKA_")) {
      return Optional.empty();
    }
    String property = propertyOf(variable);
    return BROKER_CONFIGS.contains(property) ? Optional.of(property) : Optional.empty();
  }

  /** The image's rule, reversed: {@code KAFKA_LOG_DIRS} is {@code log.dirs}. */
  static String propertyOf(String variable) {
    return variable
        .substring("KAFKA_".length())
        .replace("___", "-")
        .replace("__", "\u0000")
        .replace('_', '.')
        .replace('\u0000', '_')
        .toLowerCase(Locale.ROOT);
  }
}
