package io.freshet.kit.ops;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Readiness from background checks, for every service: {@code broker} (a metadata request) and, in
 * a service with a database, {@code database} (a connection validated), each a health indicator of
 * that name answered from the latest result within a second whatever the dependency does. A service
 * lists them in its readiness group ({@code management.endpoint.health.group.readiness .include});
 * a service that defines indicators of these names keeps its own.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
    })
@EnableConfigurationProperties(HealthSettings.class)
public class HealthKitAutoConfiguration {

  @Bean(name = "broker", destroyMethod = "")
  @ConditionalOnMissingBean(name = "broker")
  Probe brokerProbe(KafkaAdmin kafkaAdmin, HealthSettings settings) {
    var admin = new LazyAdmin(kafkaAdmin);
    return new Probe(
        "broker",
        () ->
            admin
                .get()
                .describeCluster(
                    new DescribeClusterOptions()
                        .timeoutMs((int) settings.probeTimeout().toMillis()))
                .clusterId()
                .get(settings.probeTimeout().toMillis(), TimeUnit.MILLISECONDS),
        Clock.systemUTC(),
        settings.probeInterval(),
        settings.probeTimeout());
  }

  @Bean(name = "database", destroyMethod = "")
  @ConditionalOnBean(DataSource.class)
  @ConditionalOnMissingBean(name = "database")
  Probe databaseProbe(DataSource dataSource, HealthSettings settings) {
    int seconds = (int) Math.max(1, settings.probeTimeout().toSeconds());
    return new Probe(
        "database",
        () -> {
          try (var c = dataSource.getConnection()) {
            if (!c.isValid(seconds)) {
              throw new IllegalStateException("the connection is not valid");
            }
          }
          return null;
        },
        Clock.systemUTC(),
        settings.probeInterval(),
        settings.probeTimeout());
  }

  @Bean
  @ConditionalOnMissingBean
  BackgroundProbes backgroundProbes(ObjectProvider<Probe> probes, HealthSettings settings) {
    return new BackgroundProbes(probes.orderedStream().toList(), settings.probeInterval());
  }

  /** One admin client, made on the first check (a broker down at start-up is a failed check). */
  static final class LazyAdmin {
    private final KafkaAdmin kafkaAdmin;
    private volatile Admin admin;

    LazyAdmin(KafkaAdmin kafkaAdmin) {
      this.kafkaAdmin = kafkaAdmin;
    }

    Admin get() {
      if (admin == null) {
        synchronized (this) {
          if (admin == null) {
            admin = Admin.create(kafkaAdmin.getConfigurationProperties());
          }
        }
      }
      return admin;
    }
  }
}
