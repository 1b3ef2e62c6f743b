package io.freshet.scheduler.schedule;

import java.util.UUID;

/**
 * Recomputes a source's next due time from its row (cadence config, cursor, stats) after something
 * other than a fetch outcome changed it: an edited cadence, new stats, re-enabling.
 */
public interface Rescheduler {

  /** Recomputes and stores {@code next_due_at} unless a fetch is in flight. No-op if unknown. */
  void reschedule(UUID sourceId);
}
