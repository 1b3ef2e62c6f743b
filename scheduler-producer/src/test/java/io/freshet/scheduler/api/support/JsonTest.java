package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.kit.web.ApiException;
import io.freshet.kit.web.QueryParameterFilter;
import io.freshet.scheduler.api.ApiTesting;
import org.junit.jupiter.api.Test;

class JsonTest {

  private static final Json JSON = ApiTesting.json();

  @Test
  void aSyntaxErrorSaysWhereItIs() {
    assertThatThrownBy(() -> JSON.parse("{\n  \"name\": ,\n}", "body"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.errors())
                    .singleElement()
                    .asString()
                    .startsWith("body: not valid JSON at line 2, column ")
                    .doesNotContain("\n"));
  }

  @Test
  void duplicateKeysAndTrailingContentAreErrors() {
    assertThatThrownBy(() -> JSON.parse("{\"a\": 1, \"a\": 2}", "body"))
        .hasMessageContaining("Duplicate");
    assertThatThrownBy(() -> JSON.parse("{\"a\": 1} {\"b\": 2}", "body"))
        .isInstanceOf(ApiException.class);
  }

  @Test
  void anEmptyBodyIsNamedAsSuch() {
    assertThatThrownBy(() -> JSON.parse("  ", "line 4"))
        .hasMessageContaining("line 4: is empty; expected a JSON object");
  }

  @Test
  void aNulCharacterAnywhereInTheDocumentIsRefusedWithItsPath() {
    // PostgreSQL cannot store U+0000; it used to end in a 500.
    assertThatThrownBy(
            () -> JSON.parse("{\"config\": {\"tags\": [\"ok\", \"a\\u0000b\"]}}", "body"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.errors())
                    .containsExactly("body: /config/tags/1: " + QueryParameterFilter.NUL_MESSAGE));
    assertThatThrownBy(() -> JSON.parse("{\"na\\u0000me\": 1}", "line 2"))
        .hasMessageContaining("line 2: /na?me: contains a NUL character");
  }
}
