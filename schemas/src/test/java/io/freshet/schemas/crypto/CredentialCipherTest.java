package io.freshet.schemas.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class CredentialCipherTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
  private static final String OTHER_KEY =
      Base64.getEncoder()
          .encodeToString("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

  @Test
  void roundTripsAndNeverCarriesThePlaintext() {
    var cipher = CredentialCipher.fromBase64Key(KEY);
    byte[] sealed = cipher.encrypt("{\"token\":\"s3cr3t\"}");

    assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("s3cr3t");
    assertThat(cipher.decrypt(sealed)).isEqualTo("{\"token\":\"s3cr3t\"}");
  }

  @Test
  void sameSecretSealsDifferentlyEachTime() {
    var cipher = CredentialCipher.fromBase64Key(KEY);
    assertThat(cipher.encrypt("x")).isNotEqualTo(cipher.encrypt("x"));
  }

  @Test
  void anotherKeyCannotOpenIt() {
    byte[] sealed = CredentialCipher.fromBase64Key(KEY).encrypt("secret");

    assertThatThrownBy(() -> CredentialCipher.fromBase64Key(OTHER_KEY).decrypt(sealed))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("credentials were sealed with another key or altered");
  }

  @Test
  void badKeysAreRefusedWithTheReason() {
    assertThatThrownBy(() -> CredentialCipher.fromBase64Key("")).hasMessageContaining("not set");
    assertThatThrownBy(() -> CredentialCipher.fromBase64Key("not base64!"))
        .hasMessageContaining("not valid base64");
    assertThatThrownBy(
            () -> CredentialCipher.fromBase64Key(Base64.getEncoder().encodeToString(new byte[16])))
        .hasMessage("credentials key must be 32 bytes (AES-256), was 16");
  }
}
