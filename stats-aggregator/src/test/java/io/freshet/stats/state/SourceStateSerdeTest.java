package io.freshet.stats.state;

import static io.freshet.stats.testing.Outcomes.added;
import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static io.freshet.stats.testing.Outcomes.withEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
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
  void theTenantOfTheSourceIsKeptAndAStateOfTheLayoutBeforeItReadsWithoutOne() {
    SourceState state = updater.initial();
    updater.apply(state, outcome("s", T).tenant("acme").items(added("a")).build());
    assertThat(state.tenantId()).isEqualTo("acme");
    // an outcome without a tenant (an older worker) does not forget it
    updater.apply(state, outcome("s", T.plusSeconds(60)).items(added("b")).build());
    assertThat(state.tenantId()).isEqualTo("acme");

    SourceState back = serde.deserializer().deserialize("t", SourceStateSerde.write(state));
    assertThat(back.tenantId()).isEqualTo("acme");
    assertThat(deriver.derive("s", back).getTenantId()).isEqualTo("acme");

    // format 1: the same layout without the tenant's presence flag at the end
    SourceState untenanted = updater.initial();
    updater.apply(untenanted, outcome("s", T).items(added("a")).build());
    byte[] v2 = SourceStateSerde.write(untenanted);
    byte[] v1 = Arrays.copyOf(v2, v2.length - 1);
    v1[0] = SourceStateSerde.FORMAT_WITHOUT_TENANT;
    SourceState old = serde.deserializer().deserialize("t", v1);
    assertThat(old.tenantId()).isNull();
    assertThat(deriver.derive("s", old)).isEqualTo(deriver.derive("s", untenanted));
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
