package io.freshet.sink.retention;

import io.freshet.sink.config.SinkProperties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs {@link ContentCleaner} every {@code freshet.cleanup.interval} (after {@code initial-delay})
 * while {@code freshet.cleanup.enabled}. A failed run (database unavailable) is logged in one line
 * and the next one runs on schedule.
 */
@Component
class CleanupJob implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(CleanupJob.class);

  private final ContentCleaner cleaner;
  private final SinkProperties.Cleanup settings;
  private ScheduledExecutorService executor;

  CleanupJob(ContentCleaner cleaner, SinkProperties props) {
    this.cleaner = cleaner;
    this.settings = props.cleanup();
  }

  @Override
  public synchronized void start() {
    if (!settings.enabled() || executor != null) {
      return;
    }
    executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("cleanup").daemon().factory());
    executor.scheduleWithFixedDelay(
        this::runOnce,
        settings.initialDelay().toMillis(),
        settings.interval().toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void runOnce() {
    try {
      cleaner.run();
    } catch (RuntimeException e) {
      Throwable t = e;
      while (t.getCause() != null) {
        t = t.getCause();
      }
      log.warn("cleanup run failed, next in {}: {}", settings.interval(), t.getMessage());
    }
  }

  @Override
  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return executor != null;
  }
}
