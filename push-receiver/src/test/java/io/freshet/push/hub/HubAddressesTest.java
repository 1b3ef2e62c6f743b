package io.freshet.push.hub;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A feed cannot point the receiver's requests into the network it runs in. */
class HubAddressesTest {

  private final HubAddresses addresses = new HubAddresses(false);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1/hub",
        "http://10.1.2.3/hub",
        "http://172.16.0.1/hub",
        "http://192.168.1.1/hub",
        "http://169.254.169.254/latest/meta-data",
        "http://100.64.0.1/hub",
        "http://0.0.0.0/hub",
        "http://[::1]/hub",
        "http://[fd00::1]/hub",
        "http://[fe80::1]/hub",
        "http://localhost/hub"
      })
  void refusesHubsOnNonPublicAddresses(String hub) {
    assertThat(addresses.refusal(URI.create(hub))).isEqualTo("private_address");
    assertThat(new HubAddresses(true).refusal(URI.create(hub))).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"ftp://93.184.216.34/hub", "file:///etc/passwd", "http://u:p@93.184.216.34/"})
  void refusesOtherSchemesAndUserInfo(String hub) {
    assertThat(addresses.refusal(URI.create(hub))).isIn("scheme", "host");
  }

  @ParameterizedTest
  @ValueSource(strings = {"https://93.184.216.34/hub", "http://[2606:2800:220:1::]/hub"})
  void acceptsPublicAddresses(String hub) {
    assertThat(addresses.refusal(URI.create(hub))).isNull();
  }
}
