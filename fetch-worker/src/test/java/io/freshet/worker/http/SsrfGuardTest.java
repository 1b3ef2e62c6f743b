package io.freshet.worker.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SsrfGuardTest {

  private static final Map<String, String> DNS =
      Map.of(
          "public.example", "93.184.216.34",
          "inside.example", "10.1.2.3",
          "router.example", "192.168.1.1",
          "meta.example", "169.254.169.254",
          "ula.example", "fd12::1",
          "cgnat.example", "100.64.0.1");

  private static InetAddress[] resolve(String host) throws UnknownHostException {
    String ip = DNS.get(host);
    if (ip != null) {
      return new InetAddress[] {InetAddress.getByName(ip)};
    }
    if (Character.isDigit(host.charAt(0)) || host.contains(":")) {
      return new InetAddress[] {InetAddress.getByName(host)};
    }
    throw new UnknownHostException(host);
  }

  private final SsrfGuard strict = new SsrfGuard(SsrfGuardTest::resolve, false, false);

  @Test
  void refusesLoopbackPrivateLinkLocalAndIpv6LoopbackWithTheAddressNamed() {
    assertRefused("http://127.0.0.1/feed", "127.0.0.1 (loopback");
    assertRefused("http://[::1]:8080/feed", "loopback");
    assertRefused("http://inside.example/feed", "10.1.2.3 (private");
    assertRefused("http://router.example/", "192.168.1.1 (private");
    assertRefused("http://meta.example/latest/meta-data", "169.254.169.254 (link-local");
    assertRefused("http://169.254.169.254/latest/meta-data", "link-local");
    assertRefused("http://ula.example/", "private");
    assertRefused("http://cgnat.example/", "private");
    assertRefused("http://224.0.0.1/", "multicast");
    assertRefused("http://0.0.0.0/", "unspecified");
  }

  @Test
  void fetchesPublicAddresses() {
    assertThatCode(() -> strict.check(URI.create("https://public.example/feed")))
        .doesNotThrowAnyException();
  }

  @Test
  void allowsLoopbackOnlyWhenConfiguredAndLinkLocalNever() throws Exception {
    var loopbackAllowed = new SsrfGuard(SsrfGuardTest::resolve, true, false);
    loopbackAllowed.check(URI.create("http://127.0.0.1:9/"));
    assertThatThrownBy(() -> loopbackAllowed.check(URI.create("http://inside.example/")))
        .isInstanceOf(FetchFailure.class);
    var everythingAllowed = new SsrfGuard(SsrfGuardTest::resolve, true, true);
    everythingAllowed.check(URI.create("http://inside.example/"));
    assertThatThrownBy(() -> everythingAllowed.check(URI.create("http://meta.example/")))
        .hasMessageContaining("link-local");
  }

  @Test
  void refusesOtherSchemesAndUnknownHosts() {
    assertThatThrownBy(() -> strict.check(URI.create("file:///etc/passwd")))
        .isInstanceOfSatisfying(
            FetchFailure.class, f -> assertThat(f.kind()).isEqualTo(ErrorKind.BAD_URL));
    assertThatThrownBy(() -> strict.check(URI.create("http://nowhere.example/")))
        .isInstanceOfSatisfying(
            FetchFailure.class, f -> assertThat(f.kind()).isEqualTo(ErrorKind.DNS));
  }

  private void assertRefused(String url, String expected) {
    assertThatThrownBy(() -> strict.check(URI.create(url)))
        .isInstanceOfSatisfying(
            FetchFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ErrorKind.REFUSED_ADDRESS);
              assertThat(f.getMessage()).contains(expected);
            });
  }
}
