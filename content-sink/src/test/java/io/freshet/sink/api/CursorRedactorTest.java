package io.freshet.sink.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class CursorRedactorTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  @Test
  void tokenValuesAreMaskedAndEverythingElseStaysReadable() {
    JsonNode cursor =
        json(
            """
            {"etag": "\\"abc\\"", "last_modified": "Wed, 21 Oct 2026 07:28:00 GMT",
             "sync_token": "s3cr3t-sync", "nextPageToken": "pg-77", "since": "2026-11-01T00:00:00Z",
             "seen": "1:AAAA", "last_fetch_at": "2026-11-01T00:00:00Z",
             "sync_token_param": "sync_token", "sync_token_pointer": "/next_sync_token",
             "session_id": "sess-1", "api-key": "k-1", "signal": "event", "monkey": "banana"}
            """);

    JsonNode shown = CursorRedactor.redact(cursor);

    assertThat(shown.get("sync_token").asString()).isEqualTo("***");
    assertThat(shown.get("nextPageToken").asString()).isEqualTo("***");
    assertThat(shown.get("session_id").asString()).isEqualTo("***");
    assertThat(shown.get("api-key").asString()).isEqualTo("***");
    // not secrets: validators, dates, the digest, and keys that only name a parameter or pointer
    assertThat(shown.get("etag").asString()).isEqualTo("\"abc\"");
    assertThat(shown.get("last_modified").asString()).isEqualTo("Wed, 21 Oct 2026 07:28:00 GMT");
    assertThat(shown.get("since").asString()).isEqualTo("2026-11-01T00:00:00Z");
    assertThat(shown.get("seen").asString()).isEqualTo("1:AAAA");
    assertThat(shown.get("last_fetch_at").asString()).isEqualTo("2026-11-01T00:00:00Z");
    assertThat(shown.get("sync_token_param").asString()).isEqualTo("sync_token");
    assertThat(shown.get("sync_token_pointer").asString()).isEqualTo("/next_sync_token");
    assertThat(shown.get("signal").asString()).isEqualTo("event");
    assertThat(shown.get("monkey").asString()).isEqualTo("banana");
    assertThat(shown.toString()).doesNotContain("s3cr3t-sync", "pg-77", "sess-1", "k-1");
    // the stored cursor itself is not changed
    assertThat(cursor.get("sync_token").asString()).isEqualTo("s3cr3t-sync");
  }

  @Test
  void aNextPageUrlKeepsItsPathButNotItsSecrets() {
    JsonNode shown =
        CursorRedactor.redact(
            json(
                """
                {"next": "https://bob:pw@api.example.com/v1/items?page=3&api_key=K9&sig=zz#f",
                 "pages": ["https://api.example.com/x?token=T1&q=a"]}
                """));

    assertThat(shown.get("next").asString())
        .isEqualTo("https://***@api.example.com/v1/items?page=3&api_key=***&sig=***#f");
    assertThat(shown.get("pages").get(0).asString())
        .isEqualTo("https://api.example.com/x?token=***&q=a");
  }

  @Test
  void nestedObjectsAndNullsAreHandled() {
    assertThat(CursorRedactor.redact(null)).isNull();
    JsonNode shown =
        CursorRedactor.redact(
            json("{\"paging\": {\"cursor_token\": \"x\", \"n\": 2}, \"token\": null}"));
    assertThat(shown.get("paging").get("cursor_token").asString()).isEqualTo("***");
    assertThat(shown.get("paging").get("n").asInt()).isEqualTo(2);
    assertThat(shown.get("token").isNull()).isTrue();
  }

  @Test
  void theKitsOneRuleAppliesACredentialByItsFormAndANamingSuffix() {
    // before the rule moved to the service kit, the sink's copy masked by name only and knew
    // fewer naming suffixes than the scheduler's
    JsonNode shown =
        CursorRedactor.redact(
            json(
                """
                {"h": "Bearer abcdef123456", "auth_field": "Authorization",
                 "next": "https://api.example.com/x?h=Bearer%20abcdef&page=2"}
                """));

    assertThat(shown.get("h").asString()).isEqualTo("***");
    assertThat(shown.get("auth_field").asString()).isEqualTo("Authorization");
    assertThat(shown.get("next").asString()).isEqualTo("https://api.example.com/x?h=***&page=2");
  }
}
