package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ReconciliationTest {

  @Test
  void everyServedVersionStoredOnceIsExact() {
    var r = Reconciliation.of(Map.of("a", 3, "b", 0), Map.of("a", 3));
    assertThat(r.exact()).isTrue();
    assertThat(r.line()).isEqualTo("published 3, stored 3, duplicates 0, lost 0");
  }

  @Test
  void extraVersionsAreDuplicatesAndMissingOnesLostPerSourceNotNetted() {
    var r = Reconciliation.of(Map.of("a", 3, "b", 2), Map.of("a", 4, "b", 1, "c", 1));
    assertThat(r.line()).isEqualTo("published 5, stored 6, duplicates 2, lost 1");
    assertThat(r.exact()).isFalse();
  }
}
