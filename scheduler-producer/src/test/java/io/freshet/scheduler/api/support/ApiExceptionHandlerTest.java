package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiExceptionHandlerTest {

  @Test
  void anUnexpectedErrorIsLoggedWithItsCausesRedactedAndWhereItWasThrown() {
    var root =
        new IllegalStateException(
            "Failing row contains (https://u:p@x.example.org/feed?sig=S-1, {\"password\": \"P-2\"})");
    var e = new RuntimeException("insert failed", root);

    String logged = new ApiExceptionHandler().describe(e);

    assertThat(logged)
        .startsWith("java.lang.RuntimeException: insert failed <- caused by")
        .contains(
            "java.lang.IllegalStateException: Failing row contains (https://***@x.example.org")
        .contains("sig=***", "\"password\": \"***\"")
        .doesNotContain("S-1", "P-2", "u:p@")
        .contains("\n\tat io.freshet.scheduler.api.support.ApiExceptionHandlerTest");
  }
}
