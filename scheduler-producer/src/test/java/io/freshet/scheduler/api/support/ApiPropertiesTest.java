package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.source.Tier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class ApiPropertiesTest {

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties({ApiProperties.class, CredentialsProperties.class})
  static class Props {}

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withUserConfiguration(Props.class);

  @Test
  void theServiceRefusesToStartWithoutACredentialsKey() {
    runner
        .withPropertyValues("freshet.api.token=t")
        .run(
            context ->
                assertThat(context.getStartupFailure())
                    .rootCause()
                    .hasMessageContaining("freshet.credentials.key"));
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    runner
        .withPropertyValues("freshet.api.token=t", "freshet.credentials.key=k")
        .run(
            context -> {
              ApiProperties props = context.getBean(ApiProperties.class);
              assertThat(props.maxSources().of(Tier.FREE)).isEqualTo(50);
              assertThat(props.maxSources().of(Tier.STARTER)).isEqualTo(500);
              assertThat(props.maxSources().of(Tier.PRO)).isEqualTo(10_000);
              assertThat(props.maxPageSize()).isEqualTo(500);
              assertThat(props.maxBodySize()).isEqualTo(DataSize.ofMegabytes(1));
              assertThat(props.maxImportSize()).isEqualTo(DataSize.ofMegabytes(10));
              assertThat(props.maxImportLines()).isEqualTo(50_000);
            });
  }

  @Test
  void tierLimitsCanBeOverridden() {
    runner
        .withPropertyValues(
            "freshet.api.token=t", "freshet.credentials.key=k", "freshet.api.max-sources.free=5")
        .run(
            context ->
                assertThat(context.getBean(ApiProperties.class).maxSources().of(Tier.FREE))
                    .isEqualTo(5));
  }
}
