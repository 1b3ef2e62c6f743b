package io.freshet.scheduler.api.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SourceUrlsTest {

  @Test
  void hostIsLowerCasedAndWithoutPort() {
    assertThat(SourceUrls.host("HTTPS://Example.ORG:8443/feed?x=1")).isEqualTo("example.org");
  }

  @Test
  void internationalAndUnderscoreHostsAreAccepted() {
    assertThat(SourceUrls.host("https://Bücher.example/rss")).isEqualTo("xn--bcher-kva.example");
    assertThat(SourceUrls.host("http://my_site.example.com/feed")).isEqualTo("my_site.example.com");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://example.org/feed",
        "example.org/feed",
        "/relative/path",
        "https://",
        "http:/no-host",
        "mailto:someone@example.org",
        "https://exa mple.org/"
      })
  void rejectsWhatIsNotAnAbsoluteHttpUrl(String url) {
    assertThatThrownBy(() -> SourceUrls.host(url))
        .hasMessage("must be an absolute http or https URL");
  }

  @Test
  void rejectsAPortOutsideOneTo65535() {
    // Port 99999 used to be accepted.
    assertThatThrownBy(() -> SourceUrls.host("https://example.org:99999/feed"))
        .hasMessage("has port 99999; a port is a number from 1 to 65535");
    assertThatThrownBy(() -> SourceUrls.host("https://example.org:0/feed"))
        .hasMessageContaining("port 0");
    assertThat(SourceUrls.host("https://example.org:65535/feed")).isEqualTo("example.org");
  }

  @Test
  void rejectsUserInfoSoThatNoPasswordIsStoredInClear() {
    assertThatThrownBy(() -> SourceUrls.host("https://bob:hunter2@example.org/feed"))
        .hasMessageContaining("must not contain user:password@")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void rejectsOverlongUrls() {
    assertThatThrownBy(() -> SourceUrls.host("https://example.org/" + "a".repeat(2048)))
        .hasMessage("must be at most 2048 characters");
  }
}
