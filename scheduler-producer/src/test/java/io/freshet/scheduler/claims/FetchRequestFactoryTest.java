package io.freshet.scheduler.claims;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.schedule.ClaimedSource;
import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchRequested;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FetchRequestFactoryTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final UUID ID = UUID.fromString("6f1c3a52-0b7e-4d5c-9c57-1e0f3f1d2a10");

  @Test
  void carriesConnectorOptionsButNotTheCadence() {
    FetchRequested r =
        FetchRequestFactory.create(
            source(
                "{\"cadence\":{\"mode\":\"always\"},\"item_limit\":50,\"window_days\":7,\"selectors\":{\"item\":\"li\"},\"note\":null}",
                "{}"),
            NOW,
            NOW.plusSeconds(300));

    assertThat(r.getConfig())
        .containsEntry("item_limit", "50")
        .containsEntry("window_days", "7")
        .containsEntry("selectors", "{\"item\":\"li\"}")
        .doesNotContainKeys("cadence", "note");
  }

  @Test
  void carriesTheCursorAsStrings() {
    FetchRequested r =
        FetchRequestFactory.create(
            source("{}", "{\"etag\":\"\\\"abc\\\"\",\"sync_token\":\"s-9\",\"page\":3}"), NOW, NOW);

    assertThat(r.getCursor())
        .containsEntry("etag", "\"abc\"")
        .containsEntry("sync_token", "s-9")
        .containsEntry("page", "3");
  }

  @Test
  void theRequestIdIsStablePerSourceAndEpochAndDiffersAcrossEpochs() {
    String first = FetchRequestFactory.create(source("{}", "{}"), NOW, NOW).getRequestId();
    String again =
        FetchRequestFactory.create(source("{}", "{}"), NOW.plusSeconds(9), NOW).getRequestId();

    assertThat(first).isEqualTo(again).isEqualTo(FetchRequestFactory.requestId(ID, 4));
    assertThat(FetchRequestFactory.requestId(ID, 5)).isNotEqualTo(first);
  }

  @Test
  void leaseTimesAndManualFlagAreCopied() {
    FetchRequested r = FetchRequestFactory.create(source("{}", "{}"), NOW, NOW.plusSeconds(300));

    assertThat(r.getRequestedAt()).isEqualTo(NOW);
    assertThat(r.getNotAfter()).isEqualTo(NOW.plusSeconds(300));
    assertThat(r.getDueAt()).isEqualTo(NOW.minusSeconds(60));
    assertThat(r.getManual()).isTrue();
    assertThat(r.getEpoch()).isEqualTo(4);
    assertThat(r.getConnector()).isEqualTo(Connector.ical);
    assertThat(r.getCredentialsEncrypted()).isNull();
  }

  private static ClaimedSource source(String config, String cursor) {
    return new ClaimedSource(
        ID,
        "acme",
        "ical",
        "https://cal.example.org/x.ics",
        "cal.example.org",
        config,
        cursor,
        null,
        4,
        0,
        NOW.minusSeconds(60),
        true);
  }
}
