package io.freshet.kit.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PageParamsTest {

  @Test
  void limitAndBeforeAreCheckedWithOneMessageEach() {
    List<String> errors = new ArrayList<>();
    assertThat(PageParams.limit(null, 50, 500, errors)).isEqualTo(50);
    assertThat(PageParams.limit(" 7 ", 50, 500, errors)).isEqualTo(7);
    assertThat(PageParams.before(null, errors)).isNull();
    assertThat(PageParams.before("42", errors)).isEqualTo(42L);
    assertThat(errors).isEmpty();

    PageParams.limit("0", 50, 500, errors);
    PageParams.limit("501", 50, 500, errors);
    PageParams.limit("ten", 50, 500, errors);
    PageParams.before("-1", errors);
    PageParams.before("x", errors);

    assertThat(errors)
        .containsExactly(
            "limit: must be a whole number from 1 to 500, was '0'",
            "limit: must be a whole number from 1 to 500, was '501'",
            "limit: must be a whole number from 1 to 500, was 'ten'",
            "before: must be a record id (a whole number ≥ 1): the previous page's next_before,"
                + " was '-1'",
            "before: must be a record id (a whole number ≥ 1): the previous page's next_before,"
                + " was 'x'");
  }
}
