package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiTesting;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SecretRedactorTest {

  @Test
  void masksEverySecretLookingKeyAtAnyDepthAndKeepsTheRest() {
    JsonNode cursor =
        ApiTesting.json()
            .read(
                """
            {"last_fetch_at": "2026-01-05T10:00:00Z", "etag": "\\"abc\\"",
             "sync_TOKEN": "t1", "ClientSecret": "s", "password": 7, "apiKey": "k",
             "Authorization": {"nested": true}, "cookies": ["a"], "session_id": "x",
             "pages": [{"next": 2, "refresh_token": "r"}],
             "paging": {"cursor": "c9", "access_token": "a"}}
            """);

    JsonNode redacted = SecretRedactor.redact(cursor);

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
    JsonNode cursor = ApiTesting.json().read("{\"token\": \"t1\"}");

    SecretRedactor.redact(cursor);

    assertThat(cursor.get("token").stringValue()).isEqualTo("t1");
  }

  @Test
  void matchesSecretWordsAndMarkersCaseInsensitivelyButNotLookAlikes() {
    for (String secret :
        new String[] {
          "X-Auth-Header",
          "api_key",
          "apikey",
          "X-Api-Key",
          "accessKey",
          "sig",
          "X-Amz-Signature",
          "X-Amz-Credential",
          "client_secret",
          "PHPSESSID",
          "sessionid",
          "passwd",
          "Cookie"
        }) {
      assertThat(SecretRedactor.isSecret(secret)).as(secret).isTrue();
    }
    for (String plain :
        new String[] {"monkey", "author", "signal", "keyword", "last_modified", "etag", "page"}) {
      assertThat(SecretRedactor.isSecret(plain)).as(plain).isFalse();
    }
  }

  @Test
  void masksSecretQueryParametersAndUserInfoOfAUrlAndKeepsTheRest() {
    assertThat(
            SecretRedactor.redactUrl(
                "https://u:p@api.example.org/v1/feed?page=2&api_key=abc123&sig=x%3D&author=me#top"))
        .isEqualTo("https://***@api.example.org/v1/feed?page=2&api_key=***&sig=***&author=me#top");
    assertThat(SecretRedactor.redactUrl("https://example.org/feed.xml"))
        .isEqualTo("https://example.org/feed.xml");
    assertThat(SecretRedactor.redactUrl("https://example.org/?Token"))
        .isEqualTo("https://example.org/?Token");
    assertThat(SecretRedactor.redactUrl(null)).isNull();
  }

  @Test
  void findsTheMaskWhereAWriteWouldStoreItInPlaceOfASecret() {
    JsonNode config =
        ApiTesting.json()
            .read(
                """
            {"headers": {"X-Api-Key": "***", "Accept": "***"},
             "pages": [{"token": "***"}], "password": "real"}
            """);

    assertThat(
            SecretRedactor.maskedFields(
                    "https://example.org/feed?api_key=%2A%2A%2A&page=***", config)
                .stream()
                .map(Object::toString))
        .containsExactly(
            "url: query parameter api_key is the redaction mask ***; send the real value, or"
                + " better put the secret in credentials",
            "config.headers.X-Api-Key: is the redaction mask ***; send the real value, or better"
                + " put the secret in credentials",
            "config.pages[0].token: is the redaction mask ***; send the real value, or better put"
                + " the secret in credentials");
    assertThat(SecretRedactor.maskedFields("https://example.org/feed?api_key=k", null)).isEmpty();
  }

  @Test
  void freeTextHasItsUrlsAndSecretJsonValuesRedacted() {
    String row =
        "ERROR: new row violates check constraint \"x\"; Failing row contains (7, acme, feed,"
            + " https://api.example.org/v1?api_key=K-1&page=2, {\"headers\": {\"X-Api-Key\":"
            + " \"H-2\", \"Accept\": \"text/html\"}, \"token\" : \"T\\\"3\"})";

    String redacted = SecretRedactor.redactText(row);

    assertThat(redacted)
        .doesNotContain("K-1", "H-2", "T\\\"3")
        .contains("https://api.example.org/v1?api_key=***&page=2,")
        .contains("\"X-Api-Key\": \"***\"")
        .contains("\"Accept\": \"text/html\"")
        .contains("\"token\" : \"***\"");
    assertThat(SecretRedactor.redactText(null)).isNull();
  }

  @Test
  void aNameThatNamesASecretIsNotOneAndReadsBackInClear() {
    for (String naming :
        new String[] {
          "sync_token_param",
          "sync_token_pointer",
          "tokenParam",
          "api_key_name",
          "auth_mode",
          "token_type",
          "session_field"
        }) {
      assertThat(SecretRedactor.isSecret(naming)).as(naming).isFalse();
    }
    JsonNode config =
        ApiTesting.json()
            .read(
                """
            {"cursor_mode": "sync_token", "sync_token_param": "syncToken",
             "sync_token_pointer": "/nextSyncToken", "sync_token": "st-1"}
            """);

    JsonNode shown = SecretRedactor.redact(config);

    assertThat(shown.get("sync_token_param").stringValue()).isEqualTo("syncToken");
    assertThat(shown.get("sync_token_pointer").stringValue()).isEqualTo("/nextSyncToken");
    assertThat(shown.get("cursor_mode").stringValue()).isEqualTo("sync_token");
    assertThat(shown.get("sync_token").stringValue()).isEqualTo("***");
  }

  @Test
  void aValueThatIsACredentialIsMaskedWhateverItsName() {
    JsonNode config =
        ApiTesting.json()
            .read(
                """
            {"headers": {"X-Upstream": "Bearer abc.def-123", "Accept": "text/html",
                         "X-Forward": "Basic dXNlcjpwYXNz"},
             "note": "fk_abcdefghij012345_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
             "jwt_like": "eyJhbGciOiJI.eyJzdWIiOiIx.sig", "title": "Bearer of good news"}
            """);

    JsonNode shown = SecretRedactor.redact(config);

    assertThat(shown.get("headers").get("X-Upstream").stringValue()).isEqualTo("***");
    assertThat(shown.get("headers").get("X-Forward").stringValue()).isEqualTo("***");
    assertThat(shown.get("headers").get("Accept").stringValue()).isEqualTo("text/html");
    assertThat(shown.get("note").stringValue()).isEqualTo("***");
    assertThat(shown.get("jwt_like").stringValue()).isEqualTo("***");
    // words after "Bearer": a sentence, not a credential (a credential has no spaces)
    assertThat(shown.get("title").stringValue()).isEqualTo("Bearer of good news");
    assertThat(SecretRedactor.redactUrl("https://x.org/a?h=Bearer%20abcdef&page=2"))
        .isEqualTo("https://x.org/a?h=***&page=2");
  }

  @Test
  void whatWasReadCanBeWrittenBackAndKeepsTheStoredSecrets() {
    JsonNode stored =
        ApiTesting.json()
            .read(
                """
            {"headers": {"X-Api-Key": "k-1", "Accept": "text/html", "Authorization": {"a": 1}},
             "sync_token_param": "syncToken", "pages": [{"token": "t-1"}]}
            """);
    JsonNode shown = SecretRedactor.redact(stored);

    assertThat(SecretRedactor.restore(shown, stored)).isEqualTo(stored);
    assertThat(SecretRedactor.maskedFields(null, SecretRedactor.restore(shown, stored))).isEmpty();

    // a changed value is taken; a mask where nothing secret was stored stays, and is refused
    JsonNode sent =
        ApiTesting.json()
            .read(
                """
            {"headers": {"X-Api-Key": "k-2", "Accept": "text/html", "Cookie": "***"},
             "sync_token_param": "since"}
            """);
    JsonNode restored = SecretRedactor.restore(sent, stored);
    assertThat(restored.get("headers").get("X-Api-Key").stringValue()).isEqualTo("k-2");
    assertThat(restored.get("sync_token_param").stringValue()).isEqualTo("since");
    assertThat(SecretRedactor.maskedFields(null, restored).stream().map(Object::toString))
        .singleElement()
        .asString()
        .startsWith("config.headers.Cookie:");
    assertThat(SecretRedactor.restore(null, stored)).isNull();
  }

  @Test
  void aUrlReadBackHasItsSecretQueryValuesRestored() {
    String stored = "https://api.example.org/v1?page=2&api_key=K%2B1&sig=a&sig=b#top";
    String shown = SecretRedactor.redactUrl(stored);
    assertThat(shown)
        .isEqualTo("https://api.example.org/v1?page=2&api_key=***&sig=***&sig=***#top");

    assertThat(SecretRedactor.restoreUrl(shown, stored)).isEqualTo(stored);
    assertThat(SecretRedactor.maskedFields(SecretRedactor.restoreUrl(shown, stored), null))
        .isEmpty();
    // a new path, the same server: the stored secrets stay; a new mask stays (and is refused)
    assertThat(
            SecretRedactor.restoreUrl(
                "https://api.example.org/v2?api_key=***&page=3&token=***", stored))
        .isEqualTo("https://api.example.org/v2?api_key=K%2B1&page=3&token=***");
    // another server: a stored secret never follows the URL there
    assertThat(SecretRedactor.restoreUrl("https://evil.example.net/v1?api_key=***", stored))
        .isEqualTo("https://evil.example.net/v1?api_key=***");
    assertThat(SecretRedactor.restoreUrl("https://x.org/feed", stored))
        .isEqualTo("https://x.org/feed");
    assertThat(SecretRedactor.restoreUrl(null, stored)).isNull();
  }
}
