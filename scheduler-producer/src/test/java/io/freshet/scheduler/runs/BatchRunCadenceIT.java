package io.freshet.scheduler.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.testing.SchedulerItSupport;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A stored cadence corrupted by hand once made {@code /runs} throw, while the outcome path fell
 * back to the default. Every path now asks the same facade, which falls back.
 */
class BatchRunCadenceIT extends SchedulerItSupport {

  @Autowired BatchRunService runs;

  @Test
  void aRunJudgesASourceWhoseStoredCadenceNoLongerParsesByTheDefaultCadence() {
    UUID corrupted = source().config("{\"cadence\":{\"mode\":\"every-other-tuesday\"}}").insert();
    UUID healthy = source().config("{\"cadence\":{\"mode\":\"always\"}}").insert();

    var summary = runs.run(Instant.now(), tenant);

    assertThat(summary.evaluated()).isEqualTo(2);
    assertThat(summary.requested()).as("never fetched: due under the default cadence").isEqualTo(2);
    assertThat(requestsOfTenant())
        .extracting(r -> UUID.fromString(r.getSourceId()))
        .containsExactlyInAnyOrder(corrupted, healthy);
  }
}
