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
}
