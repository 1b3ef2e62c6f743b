package io.freshet.kit.web;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * A random public port ({@code server.port=0}: a test's or a throwaway instance's) makes the
 * management port random too, as Spring Boot's own tests do: every service's application.yml names
 * a fixed management port ({@code MANAGEMENT_PORT}), which two such instances on one machine would
 * otherwise both take. The port actually taken is {@code local.management.port}.
 */
public final class RandomManagementPort implements EnvironmentPostProcessor, Ordered {

  @Override
  public void postProcessEnvironment(
      ConfigurableEnvironment environment, SpringApplication application) {
    Integer server = port(environment, "server.port");
    Integer management = port(environment, "management.server.port");
    if (server != null && server == 0 && management != null && management > 0) {
      environment
          .getPropertySources()
          .addFirst(
              new MapPropertySource(
                  "freshetRandomManagementPort", Map.of("management.server.port", "0")));
    }
  }

  private static Integer port(ConfigurableEnvironment env, String name) {
    try {
      return env.getProperty(name, Integer.class);
    } catch (RuntimeException e) {
      return null; // not a number: Spring Boot's binding reports it
    }
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE; // after the configuration files were read
  }
}
