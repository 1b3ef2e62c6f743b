package io.freshet.stats.state;

import static io.freshet.stats.testing.Outcomes.added;
import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static io.freshet.stats.testing.Outcomes.withEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.estimate.PopulationPrior;
import io.freshet.cadence.estimate.RateGrid;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class SourceStateSerdeTest {

  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");
  final StatsUpdater updater = new StatsUpdater(StatsSettings.defaults(), Clock.systemUTC());
  final StatsDeriver deriver = new StatsDeriver(updater);
  final SourceStateSerde serde = new SourceStateSerde();

  @Test
  void aStateReadBackDerivesTheSameStatsAndCountsTheSameItemsAsTheOriginal() {
    SourceState state = updater.initial();
    updater.apply(
        state,
        outcome("s", T)
            .items(
                added("a"),
                withEvent("e", T.plusSeconds(86_400)),
                published("p", ItemNovelty.added, T.minusSeconds(60)))
            .build());
    updater.apply(state, outcome("s", T.plusSeconds(3600)).status(FetchStatus.failed).build());
    updater.apply(
        state, outcome("s", T.plusSeconds(7200)).status(FetchStatus.not_modified).build());

    byte[] bytes = serde.serializer().serialize("t", state);
    SourceState back = serde.deserializer().deserialize("t", bytes);

    assertThat(deriver.derive("s", back)).isEqualTo(deriver.derive("s", state));
    assertThat(back.window()).isEqualTo(state.window());
    assertThat(back.countedHashCount()).isEqualTo(3);
    // the counted hashes and applied outcomes came back too: re-applying changes nothing
    var repeat = outcome("s", T.plusSeconds(9000)).items(added("a")).build();
    updater.apply(back, repeat);
    assertThat(back.window().getLast().newItems()).isZero();
    assertThat(Arrays.equals(serde.serializer().serialize("t", back), bytes)).isFalse();
  }

  @Test
  void theTenantOfTheSourceIsKept() {
    SourceState state = updater.initial();
    updater.apply(state, outcome("s", T).tenant("acme").items(added("a")).build());
    assertThat(state.tenantId()).isEqualTo("acme");
    // an outcome without a tenant (an older worker) does not forget it
    updater.apply(state, outcome("s", T.plusSeconds(60)).items(added("b")).build());
    assertThat(state.tenantId()).isEqualTo("acme");

    SourceState back = serde.deserializer().deserialize("t", SourceStateSerde.write(state));
    assertThat(back.tenantId()).isEqualTo("acme");
    assertThat(deriver.derive("s", back).getTenantId()).isEqualTo("acme");
  }

  /** The outcomes that made {@code source-state-format2.bin} (written by the format-2 build). */
  private List<FetchCompleted> goldenOutcomes() {
    return List.of(
        outcome("s", T)
            .request("7b0e4c1a-2f55-4d8e-9a51-0c6f3e9d2b11")
            .tenant("acme")
            .items(
                added("a"),
                withEvent("e", T.plusSeconds(86_400)),
                published("p", ItemNovelty.added, T.minusSeconds(60)))
            .build(),
        outcome("s", T.plusSeconds(3600))
            .request("0d2f9b7e-5c31-4a6b-8e0f-71a4c2d9e6f3")
            .status(FetchStatus.failed)
            .build(),
        outcome("s", T.plusSeconds(7200))
            .request("c4e8a2f0-9b17-4d3c-a6e5-2f81b0d7c943")
            .status(FetchStatus.not_modified)
            .build());
  }

  @Test
  void aStateWrittenByTheFormerLayoutsReadsTheSameAndStillKnowsTheOutcomesItApplied()
      throws Exception {
    byte[] v2;
    try (var in = getClass().getResourceAsStream("source-state-format2.bin")) {
      v2 = in.readAllBytes();
    }
    assertThat(v2[0]).isEqualTo(SourceStateSerde.FORMAT_OUTCOMES_AS_TEXT);
    SourceState now = updater.initial();
    goldenOutcomes().forEach(o -> updater.apply(now, o));

    SourceState old = serde.deserializer().deserialize("t", v2);
    assertThat(old.tenantId()).isEqualTo("acme");
    assertThat(deriver.derive("s", old)).isEqualTo(deriver.derive("s", now));
    // byte for byte the same up to format 4's rate evidence (66 bytes for a feed's), which an old
    // state lacks: the updater seeds it from the tracker's, to the same estimate
    byte[] oldBytes = SourceStateSerde.write(old);
    byte[] nowBytes = SourceStateSerde.write(now);
    assertThat(oldBytes).hasSameSizeAs(nowBytes);
    assertThat(Arrays.copyOf(oldBytes, oldBytes.length - 66))
        .isEqualTo(Arrays.copyOf(nowBytes, nowBytes.length - 66));
    assertThat(old.posterior().observations()).isZero();
    double[] broad = PopulationPrior.initial(RateGrid.STANDARD, 1.0 / 24);
    assertThat(updater.posterior(old).mean(broad))
        .isCloseTo(updater.posterior(now).mean(broad), within(1e-6));
    // a redelivery of any outcome the old state applied is still recognised after the upgrade
    for (FetchCompleted o : goldenOutcomes()) {
      assertThat(updater.apply(old, o)).isEqualTo(StatsUpdater.Applied.DUPLICATE);
    }
    // and a new outcome is not taken for one of them
    assertThat(
            updater.apply(
                old,
                outcome("s", T.plusSeconds(9000))
                    .request("7b0e4c1a-2f55-4d8e-9a51-0c6f3e9d2b11")
                    .status(FetchStatus.not_modified)
                    .build()))
        .isEqualTo(StatsUpdater.Applied.UPDATED);

    // format 1: format 2 without the tenant at the end (present flag, length, "acme")
    byte[] v1 = Arrays.copyOf(v2, v2.length - 1 - 2 - "acme".length());
    v1[0] = SourceStateSerde.FORMAT_WITHOUT_TENANT;
    SourceState untenanted = serde.deserializer().deserialize("t", v1);
    assertThat(untenanted.tenantId()).isNull();
    assertThat(updater.apply(untenanted, goldenOutcomes().get(1)))
        .isEqualTo(StatsUpdater.Applied.DUPLICATE);
  }

  @Test
  void appliedOutcomesCostEightBytesEach() {
    SourceState state = updater.initial();
    updater.apply(state, outcome("s", T).status(FetchStatus.not_modified).build());
    // the second read is the first page observation: the posterior's log-likelihood array (400
    // bytes, once) appears
    updater.apply(state, outcome("s", T.plusSeconds(1)).status(FetchStatus.not_modified).build());
    int one = SourceStateSerde.write(state).length;
    for (int f = 2; f <= 11; f++) {
      updater.apply(state, outcome("s", T.plusSeconds(f)).status(FetchStatus.not_modified).build());
    }
    int eleven = SourceStateSerde.write(state).length;
    // each not-modified fetch adds a window entry (8 + 4 + 4 per signal type + 2 bytes), a page
    // observation of the rate tracker (8 + 1 + 8) and its identity: 8 bytes, where its text took 2
    // + 36 + 1 + 13; the posterior's evidence does not grow
    assertThat(eleven - one).isEqualTo(10 * ((8 + 4 + 4 * SignalTypes.COUNT + 2) + 17 + 8));
  }

  @Test
  void aStateWithTheDefaultBoundsFullStaysSmall() {
    SourceState state = updater.initial();
    for (int f = 0; f < 40; f++) {
      var b = outcome("s", T.plusSeconds(f * 3600L));
      for (int i = 0; i < 20; i++) {
        b.items(added("f" + f + "i" + i));
      }
      updater.apply(state, b.build());
    }
    byte[] bytes = serde.serializer().serialize("t", state);
    assertThat(state.countedHashCount()).isEqualTo(512);
    assertThat(bytes.length).isLessThan(8 * 1024);
  }

  @Test
  void anUnknownFormatIsASerializationError() {
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {9, 0, 0}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("format 9");
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {1, 0}))
        .isInstanceOf(SerializationException.class);
  }
}
