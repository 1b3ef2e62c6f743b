package io.freshet.scheduler.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditParamsTest {

  @Test
  void limitAndBeforeAreCheckedWithOneMessageEach() {
    List<String> errors = new ArrayList<>();
    assertThat(AuditParams.limit(null, 50, 500, errors)).isEqualTo(50);
    assertThat(AuditParams.limit(" 7 ", 50, 500, errors)).isEqualTo(7);
    assertThat(AuditParams.before(null, errors)).isNull();
    assertThat(AuditParams.before("42", errors)).isEqualTo(42L);
    assertThat(errors).isEmpty();

    AuditParams.limit("0", 50, 500, errors);
    AuditParams.limit("501", 50, 500, errors);
    AuditParams.limit("ten", 50, 500, errors);
    AuditParams.before("-1", errors);
    AuditParams.before("x", errors);

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
