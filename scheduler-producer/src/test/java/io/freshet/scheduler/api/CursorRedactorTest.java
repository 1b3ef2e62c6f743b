package io.freshet.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class CursorRedactorTest {

  @Test
  void masksEverySecretLookingKeyAtAnyDepthAndKeepsTheRest() {
    JsonNode cursor =
        Json.read(
            """
            {"last_fetch_at": "2026-01-05T10:00:00Z", "etag": "\\"abc\\"",
             "sync_TOKEN": "t1", "ClientSecret": "s", "password": 7, "apiKey": "k",
             "Authorization": {"nested": true}, "cookies": ["a"], "session_id": "x",
             "pages": [{"next": 2, "refresh_token": "r"}],
             "paging": {"cursor": "c9", "access_token": "a"}}
            """);

    JsonNode redacted = CursorRedactor.redact(cursor);

    assertThat(redacted.get("last_fetch_at").stringValue()).isEqualTo("2026-01-05T10:00:00Z");
    assertThat(redacted.get("etag").stringValue()).isEqualTo("\"abc\"");
    for (String key :
        new String[] {
          "sync_TOKEN",
          "ClientSecret",
          "password",
          "apiKey",
          "Authorization",
          "cookies",
          "session_id"
        }) {
      assertThat(redacted.get(key).stringValue()).as(key).isEqualTo("***");
    }
    assertThat(redacted.get("pages").get(0).get("refresh_token").stringValue()).isEqualTo("***");
    assertThat(redacted.get("pages").get(0).get("next").intValue()).isEqualTo(2);
    assertThat(redacted.get("paging").get("cursor").stringValue()).isEqualTo("c9");
    assertThat(redacted.get("paging").get("access_token").stringValue()).isEqualTo("***");
  }

  @Test
  void leavesTheOriginalUntouched() {
    JsonNode cursor = Json.read("{\"token\": \"t1\"}");

    CursorRedactor.redact(cursor);

    assertThat(cursor.get("token").stringValue()).isEqualTo("t1");
  }

  @Test
  void matchesSubstringsCaseInsensitively() {
    assertThat(CursorRedactor.isSecret("X-Auth-Header")).isTrue();
    assertThat(CursorRedactor.isSecret("monkey")).isTrue();
    assertThat(CursorRedactor.isSecret("last_modified")).isFalse();
    assertThat(CursorRedactor.isSecret("etag")).isFalse();
  }
}
