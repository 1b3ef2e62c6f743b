package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.kit.security.KeyDirectory.Verdict;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class KeyDirectoryTest {

  private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");

  private final KeyDirectory directory =
      new KeyDirectory(Clock.fixed(NOW, ZoneOffset.UTC))
          .withBootstrap("bootstrap-legacy-admin", Role.ADMIN, "old-write-token")
          .withBootstrap("bootstrap-legacy-read", Role.READ, "old-read-token")
          .withBootstrap("bootstrap-admin", Role.ADMIN, "");

  private ApiKeys.Generated key(String tenant, Role role, Instant expires, Instant revoked) {
    var key = ApiKeys.generate();
    directory.put(
        new KeyState(
            key.id(), tenant, role, key.secretSha256(), NOW.minusSeconds(60), expires, revoked));
    return key;
  }

  @Test
  void aKnownKeyIsItsTenantAndRole() {
    var key = key("acme", Role.WRITE, null, null);

    assertThat(directory.authenticate(key.text()))
        .isEqualTo(new Verdict.Accepted(new KeyPrincipal(key.id(), "acme", Role.WRITE)));
    assertThat(directory.authenticate("  " + key.text() + " "))
        .isInstanceOf(Verdict.Accepted.class);
  }

  @Test
  void unknownWrongSecretRevokedAndExpiredKeysAreRefusedWithoutRepeatingTheKey() {
    var revoked = key("acme", Role.READ, null, NOW.minusSeconds(1));
    var expired = key("acme", Role.READ, NOW, null);
    var good = key("acme", Role.READ, NOW.plusSeconds(1), null);
    String wrongSecret = good.text().substring(0, 20) + "A".repeat(43);

    assertThat(refusal(ApiKeys.generate().text())).isEqualTo("invalid API key");
    assertThat(refusal(wrongSecret)).isEqualTo("invalid API key");
    assertThat(refusal(revoked.text())).isEqualTo("API key " + revoked.id() + " was revoked");
    assertThat(refusal(expired.text())).isEqualTo("API key " + expired.id() + " has expired");
    assertThat(refusal("nope")).isEqualTo("invalid API key");
    assertThat(refusal("")).startsWith("missing API key");
    assertThat(directory.authenticate(good.text())).isInstanceOf(Verdict.Accepted.class);
  }

  @Test
  void theLatestStateWins() {
    var key = key("acme", Role.READ, null, null);
    var state = directory.get(key.id()).orElseThrow();

    directory.put(
        new KeyState(
            state.id(), "acme", Role.READ, state.secretSha256(), state.createdAt(), null, NOW));

    assertThat(refusal(key.text())).endsWith("was revoked");
  }

  @Test
  void theDeprecatedTokensAreBootstrapKeysOfTheirRole() {
    assertThat(directory.authenticate("old-write-token"))
        .isEqualTo(
            new Verdict.Accepted(new KeyPrincipal("bootstrap-legacy-admin", null, Role.ADMIN)));
    assertThat(directory.authenticate("old-read-token"))
        .isEqualTo(
            new Verdict.Accepted(new KeyPrincipal("bootstrap-legacy-read", null, Role.READ)));
    assertThat(directory.hasBootstrap()).isTrue();
  }

  @Test
  void aStatesSecretDigestIsNeverInItsText() {
    var key = key("acme", Role.READ, null, null);
    assertThat(directory.get(key.id()).orElseThrow().toString())
        .contains(key.id())
        .doesNotContain(key.text().substring(20));
  }

  private String refusal(String text) {
    return ((Verdict.Refused) directory.authenticate(text)).reason();
  }
}
