package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** With the database down, API calls used to block 30 s and then answer 500. */
class DatabaseOutageApiIT extends ApiItSupport {

  @Autowired DataSource dataSource;

  /**
   * The outage cut the pool's connections; the next test of this shared context must not be handed
   * one of them.
   */
  @AfterEach
  void freshConnections() {
    ((HikariDataSource) dataSource).getHikariPoolMXBean().softEvictConnections();
  }

  @Test
  void withTheDatabaseDownTheApiAnswers503WithinSeconds() {
    var http = HttpClient.newHttpClient();
    var answer = new AtomicReference<HttpResponse<String>>();
    var took = new AtomicReference<Duration>();

    withDatabaseDown(
        () -> {
          long t0 = System.nanoTime();
          try {
            answer.set(
                http.send(
                    HttpRequest.newBuilder(
                            URI.create("http://localhost:" + port + "/sources?tenant_id=" + tenant))
                        .header("Authorization", "Bearer " + ApiClient.READ_TOKEN)
                        .timeout(Duration.ofSeconds(20))
                        .build(),
                    HttpResponse.BodyHandlers.ofString()));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          took.set(Duration.ofNanos(System.nanoTime() - t0));
        });

    assertThat(answer.get().statusCode()).isEqualTo(503);
    assertThat(answer.get().headers().firstValue("Retry-After")).isPresent();
    assertThat(answer.get().body()).contains("database unavailable");
    // The pool's connection timeout is 3 s; 10 s leaves room for a loaded machine.
    assertThat(took.get()).isLessThan(Duration.ofSeconds(10));
  }
}
