package io.freshet.scheduler.api.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.ApiTesting;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class NdjsonImportTest {

  @Test
  void everyNonBlankLineIsAnEntryLabelledWithItsLineNumber() {
    var entries =
        NdjsonImport.parse("{\"name\": \"a\"}\r\n\n  \n{\"name\": \"b\"}\n", 10, ApiTesting.json());

    assertThat(entries).extracting(ImportEntry::label).containsExactly("line 1", "line 4");
  }

  @Test
  void everyLineThatIsNotJsonIsReportedWithItsColumn() {
    assertThatThrownBy(
            () -> NdjsonImport.parse("{\"a\": 1}\n{\"a\": }\n{\"a\" 1}\n", 10, ApiTesting.json()))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.errors())
                    .hasSize(2)
                    .satisfiesExactly(
                        m -> assertThat(m).startsWith("line 2: not valid JSON at column "),
                        m -> assertThat(m).startsWith("line 3: not valid JSON at column ")));
  }

  @Test
  void moreLinesThanTheLimitIs413AndAnEmptyBodyIs400() {
    assertThatThrownBy(() -> NdjsonImport.parse("{}\n{}\n{}\n", 2, ApiTesting.json()))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> assertThat(e.status()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE));
    assertThatThrownBy(() -> NdjsonImport.parse("\n\n", 2, ApiTesting.json()))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST));
  }

  @Test
  void manyErrorsAreCappedWithACount() {
    String body = "x\n".repeat(150);

    assertThatThrownBy(() -> NdjsonImport.parse(body, 1000, ApiTesting.json()))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.errors()).hasSize(101);
              assertThat(e.errors().getLast()).contains("50 more problems");
            });
  }
}
