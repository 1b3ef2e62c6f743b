package io.freshet.worker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CrashMarkerTest {

  @Test
  void aMarkerReadsBackAsWritten() {
    var marker = new CrashMarker("a1b2c3d4-e5f6", 1_234, 1_240, Map.of(1_236L, 1, 1_238L, 2));

    assertThat(CrashMarker.decode(marker.encode())).isEqualTo(marker);
  }

  @Test
  void aBatchMarkerNamesNoRecordAndCountsNoCrash() {
    var marker = new CrashMarker("w", 10, -1, Map.of());

    assertThat(CrashMarker.decode(marker.encode()).crashesAfterDeath()).isEmpty();
  }

  @Test
  void theRecordFetchedAloneCountsOneCrashMoreOnceItsWorkerDied() {
    var marker = new CrashMarker("w", 10, 12, Map.of(12L, 1, 11L, 1));

    assertThat(marker.crashesAfterDeath()).containsEntry(12L, 2).containsEntry(11L, 1);
  }

  @Test
  void metadataThatIsNotAMarkerIsNone() {
    assertThat(CrashMarker.decode(null)).isNull();
    assertThat(CrashMarker.decode("")).isNull();
    assertThat(CrashMarker.decode("some other tool's metadata")).isNull();
    assertThat(CrashMarker.decode(CrashMarker.PREFIX + "i=w;at=x;cur=1;c=")).isNull();
    assertThat(CrashMarker.decode(CrashMarker.PREFIX + "at=1;cur=1;c=")).isNull();
  }

  @Test
  void aMarkerStaysFarBelowTheBrokersMetadataLimit() {
    Map<Long, Integer> many = new LinkedHashMap<>();
    for (long offset = Long.MAX_VALUE - 1_000; offset < Long.MAX_VALUE; offset++) {
      many.put(offset, Integer.MAX_VALUE);
    }
    String encoded = new CrashMarker("a1b2c3d4-e5f6", Long.MAX_VALUE - 1_000, 0, many).encode();

    assertThat(encoded.length()).as("half the broker default of 4096").isLessThan(2_048);
    assertThat(CrashMarker.decode(encoded).crashes()).hasSize(CrashMarker.MAX_CRASH_ENTRIES);
  }
}
