package io.freshet.sink.api;

import io.freshet.kit.security.ApiKeyRules;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;

/**
 * The sink's own rule before the service kit's defaults (reads need {@code read}, writes {@code
 * write}): {@code POST /cleanup} deletes every tenant's expired content, an operator's action, so
 * it needs an admin key; {@code GET /audit} names keys and what they changed, so it needs a write
 * key at least (a read key never sees it). Which rows a key sees is decided per request from its
 * {@code KeyPrincipal} (the controllers).
 */
@Configuration(proxyBeanMethods = false)
class SinkSecurityRules {

  @Bean
  ApiKeyRules cleanupIsForAdmins() {
    return rules -> rules.requestMatchers(HttpMethod.POST, "/cleanup").hasRole("ADMIN");
  }

  @Bean
  ApiKeyRules auditNeedsWrite() {
    return rules -> rules.requestMatchers(HttpMethod.GET, "/audit").hasRole("WRITE");
  }
}
