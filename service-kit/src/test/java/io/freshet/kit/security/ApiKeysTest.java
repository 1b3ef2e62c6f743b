package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

  @Test
  void aGeneratedKeyParsesBackToItsIdAndItsSecretsDigest() {
    var key = ApiKeys.generate();

    assertThat(key.text()).startsWith("fk_" + key.id() + "_").hasSize(3 + 16 + 1 + 43);
    var presented = ApiKeys.parse(key.text()).orElseThrow();
    assertThat(presented.id()).isEqualTo(key.id());
    assertThat(ApiKeys.sameDigest(presented.digest(), key.secretSha256())).isTrue();
    assertThat(key.secretSha256()).hasSize(32);
  }

  @Test
  void keysAreDistinctAndTheirTextNeverAppearsInToString() {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      var key = ApiKeys.generate();
      assertThat(ids.add(key.id())).isTrue();
      assertThat(key.toString()).doesNotContain(key.text().substring(20));
      assertThat(ApiKeys.parse(key.text()).orElseThrow().toString())
          .doesNotContain(key.text().substring(20));
    }
  }

  @Test
  void anythingElseIsNotAKey() {
    String good = ApiKeys.generate().text();
    for (String text :
        new String[] {
          null,
          "",
          "it-token",
          good.substring(1),
          good + "x",
          good.substring(0, good.length() - 1),
          good.replace("fk_", "FK_"),
          "fk_ABCDEFGHIJKLMNOP_" + good.substring(20),
          good.substring(0, 19) + "." + good.substring(20),
          good.substring(0, 20) + "+" + good.substring(21)
        }) {
      assertThat(ApiKeys.parse(text)).as(String.valueOf(text)).isEmpty();
    }
  }

  @Test
  void digestsCompareByValue() {
    assertThat(ApiKeys.sameDigest(ApiKeys.sha256("a"), ApiKeys.sha256("a"))).isTrue();
    assertThat(ApiKeys.sameDigest(ApiKeys.sha256("a"), ApiKeys.sha256("b"))).isFalse();
    assertThat(ApiKeys.sameDigest(null, ApiKeys.sha256("b"))).isFalse();
  }

  @Test
  void rolesIncludeTheOnesBelow() {
    assertThat(Role.ADMIN.grants()).containsExactly("ADMIN", "WRITE", "READ");
    assertThat(Role.WRITE.grants()).containsExactly("WRITE", "READ");
    assertThat(Role.READ.grants()).containsExactly("READ");
    assertThat(Role.parse("write")).contains(Role.WRITE);
    assertThat(Role.parse("WRITE")).isEmpty();
  }
}
