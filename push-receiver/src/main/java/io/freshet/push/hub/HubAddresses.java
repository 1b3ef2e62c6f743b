package io.freshet.push.hub;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Hub URLs come from feeds, which anyone writes: the receiver contacts only public addresses, so a
 * feed cannot make it POST into the network it runs in. Refused: loopback, private (RFC 1918, IPv6
 * unique-local), link-local, carrier-grade NAT, unspecified and multicast addresses, unless {@code
 * allowPrivate} (tests, local demos). A name is checked as it resolves now; the request resolves it
 * again (a rebinding name can still slip through, see the ADR).
 */
public final class HubAddresses {

  private final boolean allowPrivate;

  public HubAddresses(boolean allowPrivate) {
    this.allowPrivate = allowPrivate;
  }

  /** Why the hub must not be contacted, or null when it may be. */
  public String refusal(URI hub) {
    String scheme = hub.getScheme() == null ? "" : hub.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      return "scheme";
    }
    if (hub.getHost() == null || hub.getRawUserInfo() != null) {
      return "host";
    }
    if (allowPrivate) {
      return null;
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(hub.getHost())) {
        if (!isPublic(a)) {
          return "private_address";
        }
      }
      return null;
    } catch (UnknownHostException e) {
      return "dns";
    }
  }

  static boolean isPublic(InetAddress a) {
    if (a.isLoopbackAddress()
        || a.isSiteLocalAddress()
        || a.isLinkLocalAddress()
        || a.isAnyLocalAddress()
        || a.isMulticastAddress()) {
      return false;
    }
    byte[] b = a.getAddress();
    if (b.length == 4) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      return first != 0 && !(first == 100 && second >= 64 && second < 128);
    }
    return (b[0] & 0xfe) != 0xfc; // fc00::/7
  }
}
