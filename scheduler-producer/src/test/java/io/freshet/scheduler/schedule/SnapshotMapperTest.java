package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.SignalType;
import io.freshet.cadence.source.Tier;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class SnapshotMapperTest {

  @Test
  void mapsEveryColumnCadenceReads() {
    Instant published = Instant.parse("2026-11-22T09:00:00Z");
    var row =
        new ScheduleRow(
            UUID.randomUUID(),
            "starter",
            "calendar",
            true,
            "{}",
            "{\"last_fetch_at\":\"2026-11-22T08:00:00Z\",\"etag\":\"x\"}",
            Instant.now(),
            null,
            3,
            false,
            null,
            2,
            4,
            12,
            2.5,
            "ask",
            "{\"ask\":7,\"event\":2,\"bogus\":1}",
            4.5,
            3_600_000L,
            List.of(published),
            0.7,
            Instant.now(),
            null,
            "https://feed.example/rss",
            false,
            null,
            null);

    var s = SnapshotMapper.snapshot(row);

    assertThat(s.lastFetchAt()).isEqualTo(Instant.parse("2026-11-22T08:00:00Z"));
    assertThat(s.tier()).isEqualTo(Tier.parse("starter").orElseThrow());
    assertThat(s.category()).isEqualTo(Category.parse("calendar").orElseThrow());
    assertThat(s.consecutiveMisses()).isEqualTo(2);
    assertThat(s.consecutiveEmpty()).isEqualTo(4);
    assertThat(s.windowFetches()).isEqualTo(12);
    assertThat(s.avgSignalYield()).isEqualTo(2.5);
    assertThat(s.dominantSignalType()).isEqualTo(SignalType.ASK);
    assertThat(s.typeCounts())
        .containsEntry(SignalType.ASK, 7)
        .containsEntry(SignalType.EVENT, 2)
        .hasSize(2);
    assertThat(s.medianDaysToEvent()).isEqualTo(4.5);
    assertThat(s.publishIntervalAvg()).isEqualTo(Duration.ofHours(1));
    assertThat(s.recentPublishedAt()).containsExactly(published);
    assertThat(s.changeRatePerHour()).isEqualTo(0.7);
  }

  @Test
  void aMissingOrMalformedLastFetchAtMeansNeverFetched() {
    assertThat(SnapshotMapper.lastFetchAt("{}")).isNull();
    assertThat(SnapshotMapper.lastFetchAt(null)).isNull();
    assertThat(SnapshotMapper.lastFetchAt("{\"last_fetch_at\":\"yesterday\"}")).isNull();
    assertThat(SnapshotMapper.lastFetchAt("{\"last_fetch_at\":42}")).isNull();
  }
}
