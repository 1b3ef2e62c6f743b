package io.freshet.scheduler.health;

import io.freshet.scheduler.config.SchedulerProperties;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

/**
 * Checks, every {@code health-probe-interval} on a background thread, what a claim needs: the
 * database answers a query and the broker answers a metadata request, each within {@code
 * health-probe-timeout}. Readiness reports the latest results ({@code database}, {@code broker})
 * beside the claim loop's own ({@code claims}), so it is DOWN while either is unreachable or frozen
 * and answers at once: a health request never waits on a frozen dependency.
 */
@Component
class ReadinessProbes implements SmartLifecycle {

  private final SchedulerProperties props;
  private final KafkaAdmin kafkaAdmin;
  private final Probe database;
  private final Probe broker;
  private volatile Admin admin;
  private volatile Thread loop;
  private ExecutorService checks;

  ReadinessProbes(JdbcClient jdbc, KafkaAdmin kafkaAdmin, SchedulerProperties props, Clock clock) {
    this.props = props;
    this.kafkaAdmin = kafkaAdmin;
    this.database =
        new Probe(
            "database",
            () -> jdbc.sql("SELECT 1").query(Integer.class).single(),
            clock,
            props.healthProbeInterval(),
            props.healthProbeTimeout());
    this.broker =
        new Probe(
            "broker",
            () ->
                admin()
                    .describeCluster(
                        new DescribeClusterOptions()
                            .timeoutMs((int) props.healthProbeTimeout().toMillis()))
                    .clusterId()
                    .get(),
            clock,
            props.healthProbeInterval(),
            props.healthProbeTimeout());
  }

  Probe database() {
    return database;
  }

  Probe broker() {
    return broker;
  }

  private Admin admin() {
    if (admin == null) {
      synchronized (this) {
        if (admin == null) {
          admin = Admin.create(kafkaAdmin.getConfigurationProperties());
        }
      }
    }
    return admin;
  }

  @Override
  public void start() {
    checks = Executors.newVirtualThreadPerTaskExecutor();
    loop = Thread.ofPlatform().name("readiness-probes").daemon().start(this::run);
  }

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      for (Probe probe : List.of(database, broker)) {
        probe.run(checks);
      }
      try {
        TimeUnit.MILLISECONDS.sleep(props.healthProbeInterval().toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void stop() {
    Thread t = loop;
    if (t != null) {
      t.interrupt();
    }
    if (checks != null) {
      checks.shutdownNow();
    }
    if (admin != null) {
      admin.close(java.time.Duration.ofSeconds(1));
    }
    loop = null;
  }

  @Override
  public boolean isRunning() {
    return loop != null;
  }
}
