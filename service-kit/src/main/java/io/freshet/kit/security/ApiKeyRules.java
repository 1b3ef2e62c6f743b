package io.freshet.kit.security;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * A service's own rules, applied before the kit's defaults (reads need {@code read}, everything
 * else {@code write}). The scheduler's: keys and tenant changes need {@code admin}.
 */
@FunctionalInterface
public interface ApiKeyRules {
  void apply(
      AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry
          rules);
}
