package io.freshet.kit.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ProblemsTest {

  @Test
  void aProblemHasTheRfcMembersAndOneErrorPerProblem() {
    var mapper =
        JsonMapper.builder().addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class).build();
    var problem =
        Problems.of(HttpStatus.BAD_REQUEST, List.of("limit: must be positive", "cursor: bad"));

    JsonNode json = mapper.valueToTree(problem);

    assertThat(json.path("type").asString()).isEqualTo("about:blank");
    assertThat(json.path("title").asString()).isEqualTo("Bad Request");
    assertThat(json.path("status").asInt()).isEqualTo(400);
    assertThat(json.path("detail").asString()).isEqualTo("limit: must be positive; cursor: bad");
    assertThat(json.path("errors").size()).isEqualTo(2);
    assertThat(json.path("errors").path(0).asString()).isEqualTo("limit: must be positive");
  }

  @Test
  void aStatusWithoutAReasonPhraseIsAnError() {
    assertThat(Problems.title(org.springframework.http.HttpStatusCode.valueOf(499)))
        .isEqualTo("Error");
  }
}
