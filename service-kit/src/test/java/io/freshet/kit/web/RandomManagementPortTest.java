package io.freshet.kit.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** A random public port makes the fixed management port of application.yml random too. */
class RandomManagementPortTest {

  private static String managementPortAfter(Map<String, Object> properties) {
    var env = new StandardEnvironment();
    env.getPropertySources().addLast(new MapPropertySource("test", properties));
    new RandomManagementPort().postProcessEnvironment(env, new SpringApplication());
    return env.getProperty("management.server.port");
  }

  @Test
  void aRandomPublicPortMakesTheManagementPortRandom() {
    assertThat(managementPortAfter(Map.of("server.port", "0", "management.server.port", "9080")))
        .isEqualTo("0");
  }

  @Test
  void aFixedPublicPortKeepsTheManagementPortItIsGiven() {
    assertThat(
            managementPortAfter(Map.of("server.port", "18080", "management.server.port", "9080")))
        .isEqualTo("9080");
    assertThat(managementPortAfter(Map.of("server.port", "0"))).isNull();
    assertThat(managementPortAfter(Map.of("server.port", "0", "management.server.port", "-1")))
        .isEqualTo("-1");
  }
}
