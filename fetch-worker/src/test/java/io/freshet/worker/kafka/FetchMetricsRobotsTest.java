package io.freshet.worker.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.config.WorkerProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The robots meters of the service's own fetch path, bound from the service's settings. */
class FetchMetricsRobotsTest {

  @Test
  void robotsDecisionsAndRequestsAreCountedWithTheirTags() throws Exception {
    var environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .addFirst(
            new MapPropertySource(
                "test",
                Map.of(
                    "freshet.http.allow-loopback", "true", "freshet.robots.connectors", "feed")));
    WorkerProperties props =
        Binder.get(environment).bindOrCreate("freshet", WorkerProperties.class);
    assertThat(props.robots().cacheTtl()).hasHours(24);
    assertThat(props.robots().maxBytes()).isEqualTo(512_000);

    var meters = new SimpleMeterRegistry();
    try (var server = FeedServer.start();
        FetchPath path = FetchPath.create(props, Clock.systemUTC())) {
      new FetchMetrics(meters, path);
      server.serve("/robots.txt", "text/plain", "User-agent: freshet\nDisallow: /no\n", null);
      path.robots().check(Connector.feed, Map.of(), URI.create(server.url("/no/feed")), null);
      path.robots().check(Connector.html, Map.of(), URI.create(server.url("/page")), null);

      assertThat(
              meters
                  .get("freshet.worker.robots")
                  .tag("decision", "disallowed")
                  .functionCounter()
                  .count())
          .isEqualTo(1.0);
      assertThat(
              meters
                  .get("freshet.worker.robots")
                  .tag("decision", "not_applied")
                  .functionCounter()
                  .count())
          .isEqualTo(1.0);
      assertThat(
              meters
                  .get("freshet.worker.robots")
                  .tag("decision", "allowed")
                  .functionCounter()
                  .count())
          .isZero();
      assertThat(
              meters
                  .get("freshet.worker.robots.fetches")
                  .tag("outcome", "parsed")
                  .functionCounter()
                  .count())
          .isEqualTo(1.0);
      assertThat(meters.get("freshet.worker.robots.hosts").gauge().value()).isEqualTo(1.0);
    }
  }
}
