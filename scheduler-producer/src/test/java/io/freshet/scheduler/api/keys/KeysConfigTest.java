package io.freshet.scheduler.api.keys;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeysConfigTest {

  @Test
  void theServiceRefusesToStartWithoutABootstrapAdminKey() {
    assertThatThrownBy(() -> KeysConfig.requireBootstrapAdmin(" ", ""))
        .hasMessageContaining("freshet.security.admin-key")
        .hasMessageContaining("FRESHET_SECURITY_ADMIN_KEY")
        .hasMessageContaining("freshet.api.token");
    assertThatThrownBy(() -> KeysConfig.requireBootstrapAdmin(null, null))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void eitherTheAdminKeyOrTheDeprecatedTokenIsEnough() {
    assertThatCode(() -> KeysConfig.requireBootstrapAdmin("k", "")).doesNotThrowAnyException();
    assertThatCode(() -> KeysConfig.requireBootstrapAdmin("", "t")).doesNotThrowAnyException();
  }
}
