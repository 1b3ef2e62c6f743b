package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class KeyTopicReaderTest {

  @Test
  void aStateTravelsAsItsEventAndBackUnchanged() {
    var key = ApiKeys.generate();
    var state =
        new KeyState(
            key.id(),
            "acme",
            Role.WRITE,
            key.secretSha256(),
            Instant.parse("2026-11-25T00:00:00Z"),
            Instant.parse("2027-01-01T00:00:00Z"),
            null);

    var event = KeyTopicReader.event(state);

    assertThat(KeyTopicReader.state(event)).isEqualTo(state);
    assertThat(event.toString()).doesNotContain(ApiKeys.parse(key.text()).orElseThrow().secret());
    var admin =
        new KeyState(
            key.id(), null, Role.ADMIN, key.secretSha256(), Instant.EPOCH, null, Instant.EPOCH);
    assertThat(KeyTopicReader.state(KeyTopicReader.event(admin))).isEqualTo(admin);
  }

  @Test
  void anUnknownRoleIsRefused() {
    var event =
        KeyTopicReader.event(
            new KeyState("abc", "acme", Role.READ, new byte[32], Instant.EPOCH, null, null));
    event.setRole("owner");

    assertThatThrownBy(() -> KeyTopicReader.state(event)).hasMessageContaining("owner");
  }
}
