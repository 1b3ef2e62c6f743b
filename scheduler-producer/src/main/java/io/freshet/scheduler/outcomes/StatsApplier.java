package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.Rescheduler;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.schemas.avro.SourceStats;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Stores a source's latest {@code SourceStats} on its row (denormalised, as the signal-adaptive
 * note asks: computing cadence reads only the row) and recomputes its next due time. Older stats
 * than the stored ones (redelivery, compaction replays) change nothing: {@link
 * ScheduleRepository#storeStats} stores nothing then, and the source is not rescheduled.
 */
@Component
public class StatsApplier {

  private final ScheduleRepository schedule;
  private final TransactionTemplate tx;
  private final Rescheduler rescheduler;

  StatsApplier(ScheduleRepository schedule, TransactionTemplate tx, Rescheduler rescheduler) {
    this.schedule = schedule;
    this.tx = tx;
    this.rescheduler = rescheduler;
  }

  /** Returns true when the stats were newer than the stored ones and were stored. */
  public boolean apply(SourceStats stats) {
    UUID id = OutcomeApplier.parseId(stats.getSourceId());
    Boolean stored =
        tx.execute(
            status -> {
              boolean newer = schedule.storeStats(id, stats);
              if (newer) {
                rescheduler.reschedule(id);
              }
              return newer;
            });
    return Boolean.TRUE.equals(stored);
  }
}
