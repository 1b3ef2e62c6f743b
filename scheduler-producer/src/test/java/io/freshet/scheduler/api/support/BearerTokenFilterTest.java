package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.kit.web.ProblemWriter;
import io.freshet.scheduler.api.ApiTesting;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class BearerTokenFilterTest {

  private final BearerTokenFilter filter =
      new BearerTokenFilter("s3cret", "r3ad", new ProblemWriter(ApiTesting.json().mapper()));

  private MockHttpServletResponse run(String method, String path, String authorization)
      throws Exception {
    var request = new MockHttpServletRequest(method, path);
    request.setServletPath(path);
    if (authorization != null) {
      request.addHeader("Authorization", authorization);
    }
    var response = new MockHttpServletResponse();
    filter.doFilter(request, response, new MockFilterChain());
    return response;
  }

  @Test
  void writesWithoutOrWithAWrongTokenAre401WithAChallenge() throws Exception {
    for (String auth : new String[] {null, "Bearer nope", "Basic czNjcmV0", "Bearer s3cret2"}) {
      MockHttpServletResponse response = run("POST", "/sources", auth);

      assertThat(response.getStatus()).as(String.valueOf(auth)).isEqualTo(401);
      assertThat(response.getHeader("WWW-Authenticate")).isEqualTo("Bearer");
      assertThat(response.getContentType()).isEqualTo("application/problem+json");
      assertThat(response.getContentAsString())
          .startsWith(
              "{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":")
          .contains("\"errors\":[");
    }
  }

  @Test
  void theRightTokenPassesInAnyCaseOfTheScheme() throws Exception {
    assertThat(run("DELETE", "/sources/x", "Bearer s3cret").getStatus()).isEqualTo(200);
    assertThat(run("PUT", "/tenants/x", "bearer s3cret").getStatus()).isEqualTo(200);
  }

  @Test
  void readsNeedTheReadOrTheWriteToken() throws Exception {
    for (String method : new String[] {"GET", "HEAD"}) {
      assertThat(run(method, "/sources", null).getStatus()).isEqualTo(401);
      assertThat(run(method, "/sources", "Bearer nope").getStatus()).isEqualTo(401);
      assertThat(run(method, "/sources", "Bearer r3ad").getStatus()).isEqualTo(200);
      assertThat(run(method, "/tenants/x", "Bearer s3cret").getStatus()).isEqualTo(200);
    }
  }

  @Test
  void theReadTokenCannotWrite() throws Exception {
    MockHttpServletResponse response = run("POST", "/sources", "Bearer r3ad");

    assertThat(response.getStatus()).isEqualTo(403);
    assertThat(response.getContentAsString()).contains("read-only token cannot write");
  }

  @Test
  void withoutAReadTokenReadsNeedTheWriteToken() throws Exception {
    var writeOnly =
        new BearerTokenFilter("s3cret", "", new ProblemWriter(ApiTesting.json().mapper()));
    var request = new MockHttpServletRequest("GET", "/sources");
    request.setServletPath("/sources");
    request.addHeader("Authorization", "Bearer ");
    var response = new MockHttpServletResponse();

    writeOnly.doFilter(request, response, new MockFilterChain());

    assertThat(response.getStatus()).isEqualTo(401);
  }

  @Test
  void healthProbesTheApiDocumentAndPreflightsNeedNoToken() throws Exception {
    assertThat(run("GET", "/actuator/health", null).getStatus()).isEqualTo(200);
    assertThat(run("GET", "/actuator/health/readiness", null).getStatus()).isEqualTo(200);
    assertThat(run("GET", "/v3/api-docs", null).getStatus()).isEqualTo(200);
    assertThat(run("OPTIONS", "/sources", null).getStatus()).isEqualTo(200);
  }

  @Test
  void writesAnywhereElseAreDeniedByDefault() throws Exception {
    assertThat(run("POST", "/runs", null).getStatus()).isEqualTo(401);
    assertThat(run("POST", "/actuatorx", null).getStatus()).isEqualTo(401);
  }

  @Test
  void aBlankTokenIsRefused() {
    assertThatThrownBy(
            () -> new BearerTokenFilter(" ", "r", new ProblemWriter(ApiTesting.json().mapper())))
        .hasMessageContaining("freshet.api.token");
  }
}
