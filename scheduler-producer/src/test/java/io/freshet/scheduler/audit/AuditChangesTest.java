package io.freshet.scheduler.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiTesting;
import org.junit.jupiter.api.Test;

class AuditChangesTest {

  @Test
  void aSourcesStateHasItsSecretsRedactedAndOnlyWhetherThereAreCredentials() {
    var config =
        ApiTesting.json()
            .read("{\"headers\": {\"X-Api-Key\": \"H-1\"}, \"sync_token_param\": \"syncToken\"}");

    var state =
        AuditChanges.source(
            "Feed", "json", "https://x.org/a?api_key=Q-1&p=1", null, 0, true, config, true);

    String text = state.toString();
    assertThat(text).doesNotContain("H-1", "Q-1");
    assertThat(state.get("url").stringValue()).isEqualTo("https://x.org/a?api_key=***&p=1");
    assertThat(state.get("config").get("sync_token_param").stringValue()).isEqualTo("syncToken");
    assertThat(state.get("has_credentials").booleanValue()).isTrue();
    assertThat(state.has("credentials")).isFalse();
  }

  @Test
  void aDiffNamesOnlyTheFieldsThatChanged() {
    var before = AuditChanges.of().put("name", "A").put("priority", 1).put("enabled", true);
    var after = AuditChanges.of().put("name", "B").put("priority", 1).put("enabled", true);
    after.put("category", "rss");

    var diff = AuditChanges.diff(before, after);

    assertThat(diff.propertyNames()).containsExactly("name", "category");
    assertThat(diff.get("name").get("from").stringValue()).isEqualTo("A");
    assertThat(diff.get("name").get("to").stringValue()).isEqualTo("B");
    assertThat(diff.get("category").get("from").isNull()).isTrue();
  }
}
