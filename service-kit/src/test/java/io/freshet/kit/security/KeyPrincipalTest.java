package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.kit.web.ApiException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class KeyPrincipalTest {

  private final KeyPrincipal acmeRead = new KeyPrincipal("k1", "acme", Role.READ);
  private final KeyPrincipal admin = new KeyPrincipal("k2", null, Role.ADMIN);

  @Test
  void aTenantKeySeesOnlyItsOwnTenant() {
    assertThat(acmeRead.sees("acme")).isTrue();
    assertThat(acmeRead.sees("globex")).isFalse();
    assertThat(acmeRead.sees(null)).isFalse();
    assertThat(admin.sees("globex")).isTrue();
  }

  @Test
  void aTenantKeyActsForItsOwnTenantWhateverTheRequestOmits() {
    assertThat(acmeRead.actingFor(null)).contains("acme");
    assertThat(acmeRead.actingFor("")).contains("acme");
    assertThat(acmeRead.actingFor("acme")).contains("acme");
    assertThat(acmeRead.requireActingFor(null, "tenant_id")).isEqualTo("acme");
  }

  @Test
  void namingAnotherTenantIsAnsweredAsIfItDidNotExist() {
    assertThatThrownBy(() -> acmeRead.actingFor("globex"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(HttpStatus.NOT_FOUND);
              assertThat(e.errors()).containsExactly("tenant globex not found");
            });
  }

  @Test
  void anAdminActsForTheTenantItNamesAndMustNameOneToCreate() {
    assertThat(admin.actingFor("globex")).contains("globex");
    assertThat(admin.actingFor(null)).isEmpty();
    assertThatThrownBy(() -> admin.requireActingFor(" ", "tenant_id"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
              assertThat(e.errors().get(0)).startsWith("tenant_id: ");
            });
  }
}
