package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretsTest {

  @Test
  void aNameIsASecretByAFragmentOrAWordUnlessItsLastWordNamesSomething() {
    for (String secret :
        new String[] {
          "sync_TOKEN", "ClientSecret", "X-Amz-Signature", "X-Api-Key", "sig", "authKey"
        }) {
      assertThat(Secrets.isSecretName(secret)).as(secret).isTrue();
    }
    for (String plain :
        new String[] {"monkey", "author", "signal", "sync_token_param", "token_pointer", "q"}) {
      assertThat(Secrets.isSecretName(plain)).as(plain).isFalse();
    }
  }

  @Test
  void aValueIsASecretByItsForm() {
    assertThat(Secrets.looksSecret("Bearer abcdef")).isTrue();
    assertThat(Secrets.looksSecret("basic dXNlcjpwdw==")).isTrue();
    assertThat(Secrets.looksSecret("eyJhbGciOiJI.eyJzdWIiOiIx.sig")).isTrue();
    assertThat(Secrets.looksSecret("fk_0123456789abcdef_ABCDEFGHIJKLMNOPQRSTUV")).isTrue();
    assertThat(Secrets.looksSecret("bearer")).isFalse();
    assertThat(Secrets.looksSecret("plain text")).isFalse();
    assertThat(Secrets.looksSecret(null)).isFalse();
  }

  @Test
  void aUrlKeepsItsPathAndLosesItsUserInfoAndSecretQueryValues() {
    assertThat(Secrets.redactUrl("https://bob:pw@api.example.com/v1?page=3&api_key=K9&sig=z#f"))
        .isEqualTo("https://***@api.example.com/v1?page=3&api_key=***&sig=***#f");
    assertThat(Secrets.redactUrl("https://x.org/a?h=Bearer%20abcdef&page=2"))
        .isEqualTo("https://x.org/a?h=***&page=2");
    assertThat(Secrets.redactUrl("https://example.org/feed.xml"))
        .isEqualTo("https://example.org/feed.xml");
    assertThat(Secrets.redactUrl(null)).isNull();
  }
}
