package io.freshet.kit.ops;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.springframework.context.SmartLifecycle;

/**
 * Runs every {@link Probe} every {@code interval} on one background thread (each check on a virtual
 * thread, bounded by its timeout), so that {@code /actuator/health/readiness} answers at once from
 * the latest results however slow or frozen a dependency is.
 */
public class BackgroundProbes implements SmartLifecycle {

  private final List<Probe> probes;
  private final Duration interval;
  private volatile Thread loop;
  private ExecutorService checks;

  public BackgroundProbes(List<Probe> probes, Duration interval) {
    this.probes = List.copyOf(probes);
    this.interval = interval;
  }

  @Override
  public void start() {
    checks = Executors.newVirtualThreadPerTaskExecutor();
    loop = Thread.ofPlatform().name("readiness-probes").daemon().start(this::run);
  }

  private void run() {
    while (!Thread.currentThread().isInterrupted()) {
      for (Probe probe : probes) {
        probe.run(checks);
      }
      try {
        TimeUnit.MILLISECONDS.sleep(interval.toMillis());
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
    loop = null;
  }

  @Override
  public boolean isRunning() {
    return loop != null;
  }
}
