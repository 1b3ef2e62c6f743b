package io.freshet.kit.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

class QueryParameterFilterTest {

  @Test
  void aNulOrAnInvalidPercentEncodingIsNamedByItsParameter() {
    assertThat(QueryParameterFilter.problem("a=1&cursor=a%00b"))
        .hasValue("cursor: " + QueryParameterFilter.NUL_MESSAGE);
    assertThat(QueryParameterFilter.problem("limit=1&cursor=%FF"))
        .hasValue("cursor: is not valid percent-encoded UTF-8");
    assertThat(QueryParameterFilter.problem("q=%G1"))
        .hasValue("q: has an invalid percent-encoding");
    assertThat(QueryParameterFilter.problem("q=ab%2"))
        .hasValue("q: has an incomplete percent-encoding");
    assertThat(QueryParameterFilter.problem("%FF=1"))
        .get()
        .asString()
        .startsWith("query parameter name:");
  }

  @Test
  void validQueriesPass() {
    assertThat(QueryParameterFilter.problem(null)).isEmpty();
    assertThat(QueryParameterFilter.problem("")).isEmpty();
    assertThat(
            QueryParameterFilter.problem("q=caf%C3%A9+bar&flag&x=&from=2026-11-01T00%3A00%3A00Z"))
        .isEmpty();
  }

  @Test
  void theFilterAnswersAProblemAndStopsTheChain() throws Exception {
    var filter = new QueryParameterFilter(new ProblemWriter(JsonMapper.builder().build()));
    var request = new MockHttpServletRequest("GET", "/sources");
    request.setQueryString("q=x%00y");
    request.addParameter("q", "x\0y");
    var response = new MockHttpServletResponse();
    var chain = new MockFilterChain();

    filter.doFilter(request, response, chain);

    assertThat(response.getStatus()).isEqualTo(400);
    assertThat(response.getContentType()).isEqualTo("application/problem+json");
    assertThat(response.getContentAsString())
        .isEqualTo(
            "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"q: "
                + QueryParameterFilter.NUL_MESSAGE
                + "\",\"errors\":[\"q: "
                + QueryParameterFilter.NUL_MESSAGE
                + "\"]}");
    assertThat(chain.getRequest()).isNull();
  }
}
