package io.freshet.scheduler.api;

import io.freshet.scheduler.testing.SchedulerItSupport;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Base of the API's integration tests: the scheduler's ({@link SchedulerItSupport}: real broker,
 * registry and database, tables emptied before each test, a tenant of the test's own) plus a client
 * of the running service holding the tokens.
 */
public abstract class ApiItSupport extends SchedulerItSupport {

  @LocalServerPort protected int port;

  protected ApiClient api;

  @BeforeEach
  void apiClient() {
    api = new ApiClient(port);
  }
}
