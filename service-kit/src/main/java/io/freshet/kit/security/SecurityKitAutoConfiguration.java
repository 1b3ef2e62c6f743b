package io.freshet.kit.security;

import io.freshet.kit.kafka.KafkaKitAutoConfiguration;
import io.freshet.kit.web.ProblemWriter;
import io.freshet.kit.web.WebKitAutoConfiguration;
import io.freshet.schemas.topic.FreshetTopics;
import io.github.bucket4j.TimeMeter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderNotFoundException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * One Spring Security filter chain for every Freshet API: API keys ({@code Authorization: Bearer
 * fk_<id>_<secret>}) checked against the {@link KeyDirectory}, which the {@link KeyTopicReader}
 * fills from the scheduler's key topic; roles {@code admin} ⊃ {@code write} ⊃ {@code read} as
 * authorities; the principal a {@link KeyPrincipal}.
 *
 * <p>Rules, in order: CORS preflights (OPTIONS), the health probes ({@code /actuator/health},
 * {@code /liveness}, {@code /readiness}), the OpenAPI document and the error dispatch are open; on
 * the management port (when {@code management.server.port} sets one) all of actuator is open, on
 * the public port the rest of actuator needs an admin key; then the service's {@link ApiKeyRules};
 * then reads (GET, HEAD) need {@code read}, anything else {@code write}. 401 (with {@code
 * WWW-Authenticate: Bearer}) without a valid key, 403 for a key whose role is not enough, both as
 * the kit's problems. Right after the key filter, fair use: a token bucket per key, per remote
 * address without one ({@link RateLimitFilter}, {@code freshet.security.rate-limit.*}; 429 with
 * {@code Retry-After}). Active in a servlet application that has Spring Security.
 */
@AutoConfiguration(
    after = {WebKitAutoConfiguration.class, KafkaKitAutoConfiguration.class},
    before = {
      SecurityAutoConfiguration.class,
      ServletWebSecurityAutoConfiguration.class,
      UserDetailsServiceAutoConfiguration.class,
      ManagementWebSecurityAutoConfiguration.class
    })
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(SecurityFilterChain.class)
@EnableConfigurationProperties({SecuritySettings.class, RateLimitSettings.class})
public class SecurityKitAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(SecurityKitAutoConfiguration.class);

  static final String[] OPEN_HEALTH = {
    "/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"
  };

  /**
   * The directory with the bootstrap keys: {@code freshet.security.admin-key}, and the deprecated
   * single tokens {@code freshet.api.token} (admin) and {@code freshet.api.read-token} (read).
   */
  @Bean
  @ConditionalOnMissingBean
  KeyDirectory keyDirectory(SecuritySettings settings, Environment env) {
    var directory =
        new KeyDirectory(Clock.systemUTC())
            .withBootstrap("bootstrap-admin", Role.ADMIN, settings.adminKey());
    String token = env.getProperty("freshet.api.token", "");
    String readToken = env.getProperty("freshet.api.read-token", "");
    if (!token.isBlank() || !readToken.isBlank()) {
      log.warn(
          "freshet.api.token / freshet.api.read-token are deprecated: accepted as bootstrap"
              + " admin / read keys for this release; use freshet.security.admin-key and keys"
              + " made with POST /keys");
    }
    directory
        .withBootstrap("bootstrap-legacy-admin", Role.ADMIN, token)
        .withBootstrap("bootstrap-legacy-read", Role.READ, readToken);
    if (!directory.hasBootstrap()) {
      log.warn(
          "no bootstrap admin key (freshet.security.admin-key): only keys from the key topic"
              + " work");
    }
    return directory;
  }

  @Bean
  @ConditionalOnMissingBean
  KeyUse keyUse() {
    return id -> {};
  }

  /** No user store: the log line of Boot's generated password never appears. */
  @Bean
  @ConditionalOnMissingBean
  AuthenticationManager apiKeysOnly() {
    return authentication -> {
      throw new ProviderNotFoundException("API keys are checked by the API key filter only");
    };
  }

  /** The token buckets of {@code freshet.security.rate-limit.*}. */
  @Bean
  @ConditionalOnMissingBean
  RateLimiter rateLimiter(RateLimitSettings settings) {
    return new RateLimiter(settings, TimeMeter.SYSTEM_NANOTIME);
  }

  @Bean
  @ConditionalOnMissingBean(SecurityFilterChain.class)
  SecurityFilterChain apiKeyChain(
      HttpSecurity http,
      KeyDirectory directory,
      KeyUse use,
      ProblemWriter problems,
      ObjectProvider<ApiKeyRules> serviceRules,
      SecuritySettings settings,
      RateLimitSettings rateLimits,
      RateLimiter limiter,
      Environment env)
      throws Exception {
    RequestMatcher onManagementPort = managementPort(env);
    if (settings.publicPrometheus()) {
      log.warn(
          "freshet.security.public-prometheus is deprecated: scrape /actuator/prometheus on the"
              + " management port (management.server.port){}",
          onManagementPort == NO_MANAGEMENT_PORT
              ? ""
              : ", where it already is: the public port serves no metrics");
    }
    RequestMatcher probes =
        request -> {
          String path = request.getRequestURI();
          for (String open : OPEN_HEALTH) {
            if (open.equals(path)) {
              return true;
            }
          }
          return false;
        };
    http.csrf(AbstractHttpConfigurer::disable)
        .httpBasic(AbstractHttpConfigurer::disable)
        .formLogin(AbstractHttpConfigurer::disable)
        .logout(AbstractHttpConfigurer::disable)
        .requestCache(AbstractHttpConfigurer::disable)
        .anonymous(a -> {})
        .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
        .addFilterBefore(new ApiKeyFilter(directory, use), AnonymousAuthenticationFilter.class)
        .exceptionHandling(
            e ->
                e.authenticationEntryPoint(unauthorized(problems))
                    .accessDeniedHandler(forbidden(problems)))
        .authorizeHttpRequests(
            rules -> {
              rules
                  .dispatcherTypeMatchers(DispatcherType.ERROR)
                  .permitAll()
                  .requestMatchers(HttpMethod.OPTIONS, "/**")
                  .permitAll()
                  .requestMatchers(OPEN_HEALTH)
                  .permitAll()
                  .requestMatchers("/v3/api-docs", "/v3/api-docs/**", "/error")
                  .permitAll()
                  .requestMatchers(onManagementPort)
                  .permitAll();
              if (settings.publicPrometheus()) {
                rules.requestMatchers(HttpMethod.GET, "/actuator/prometheus").permitAll();
              }
              rules.requestMatchers("/actuator", "/actuator/**").hasRole("ADMIN");
              serviceRules.orderedStream().forEach(r -> r.apply(rules));
              rules
                  .requestMatchers(HttpMethod.GET, "/**")
                  .hasRole("READ")
                  .requestMatchers(HttpMethod.HEAD, "/**")
                  .hasRole("READ")
                  .anyRequest()
                  .hasRole("WRITE");
            });
    if (rateLimits.enabled()) {
      // after the key is known (its bucket), before authorization (a refused key still counts,
      // against its address)
      http.addFilterAfter(
          new RateLimitFilter(
              limiter,
              rateLimits,
              problems,
              request -> onManagementPort.matches(request) || probes.matches(request)),
          ApiKeyFilter.class);
    }
    return http.build();
  }

  private static final RequestMatcher NO_MANAGEMENT_PORT = request -> false;

  /** Requests that came in on a separate management port, if there is one. */
  static RequestMatcher managementPort(Environment env) {
    Integer management = env.getProperty("management.server.port", Integer.class);
    Integer server = env.getProperty("server.port", Integer.class, 8080);
    if (management == null || management < 0 || (management != 0 && management.equals(server))) {
      return NO_MANAGEMENT_PORT;
    }
    if (management == 0) {
      // a random management port (tests): the one the management server was given
      return request -> {
        String local = env.getProperty("local.management.port");
        return local != null && request.getLocalPort() == Integer.parseInt(local);
      };
    }
    return request -> request.getLocalPort() == management;
  }

  private static AuthenticationEntryPoint unauthorized(ProblemWriter problems) {
    return (request, response, e) -> {
      Object reason = request.getAttribute(ApiKeyFilter.REFUSAL);
      response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
      problems.write(
          response,
          HttpStatus.UNAUTHORIZED,
          reason != null ? reason.toString() : "missing API key: send Authorization: Bearer <key>");
    };
  }

  private static AccessDeniedHandler forbidden(ProblemWriter problems) {
    return (request, response, e) ->
        problems.write(response, HttpStatus.FORBIDDEN, denial(request));
  }

  private static String denial(HttpServletRequest request) {
    var auth = SecurityContextHolder.getContext().getAuthentication();
    if (auth != null && auth.getPrincipal() instanceof KeyPrincipal key) {
      return "API key "
          + key.keyId()
          + " has role "
          + key.role().wireName()
          + ", which may not "
          + request.getMethod()
          + " this resource"
          + (key.role() == Role.READ ? ": a read key never writes" : "");
    }
    return "not allowed";
  }

  /** The key topic into the directory, and its readiness as a health indicator. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBean({KafkaProperties.class, FreshetTopics.class})
  @ConditionalOnProperty(
      prefix = "freshet.security",
      name = "key-topic",
      havingValue = "true",
      matchIfMissing = true)
  static class KeyTopic {

    @Bean
    @ConditionalOnMissingBean
    KeyTopicReader keyTopicReader(
        KafkaProperties kafka,
        FreshetTopics topics,
        KeyDirectory directory,
        SecuritySettings settings) {
      return new KeyTopicReader(
          kafka.buildConsumerProperties(),
          topics.apiKeys().name(),
          topics.apiKeys().valueSerde().deserializer(),
          directory,
          settings.keyTopicPoll());
    }
  }

  /**
   * {@code apiKeys}: OUT_OF_SERVICE until the key topic was read to its end (a service that has not
   * read it refuses valid tenant keys), then UP, with the number of keys; UP at once where the
   * topic is not read ({@code freshet.security.key-topic=false}), so a readiness group may always
   * name it. A key topic that does not exist counts as read (it holds no key).
   */
  @Bean
  @ConditionalOnMissingBean(name = "apiKeysHealthIndicator")
  HealthIndicator apiKeysHealthIndicator(
      ObjectProvider<KeyTopicReader> reader, KeyDirectory directory) {
    return () -> {
      KeyTopicReader r = reader.getIfAvailable();
      if (r == null) {
        return Health.up().withDetail("keys", 0).withDetail("keyTopic", "not read").build();
      }
      return (r.caughtUp() ? Health.up() : Health.outOfService())
          .withDetail("keys", directory.size())
          .build();
    };
  }
}
