package io.freshet.worker.http;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Refuses URLs whose host resolves to an address a fetch must not reach: loopback and private
 * ranges unless allowed by configuration; link-local (cloud metadata at 169.254.169.254),
 * multicast, unspecified and broadcast always. Checked on the resolved addresses before the first
 * request and after every redirect, so a public URL that redirects inward is refused too.
 *
 * <p>Known limit: the JDK client resolves the name again when it connects, so a DNS answer that
 * changes between the check and the connect (rebinding) is not caught; pinning the address would
 * break TLS host checks in the JDK client.
 */
public final class SsrfGuard {

  private final AddressResolver resolver;
  private final boolean allowLoopback;
  private final boolean allowPrivate;

  public SsrfGuard(AddressResolver resolver, boolean allowLoopback, boolean allowPrivate) {
    this.resolver = resolver;
    this.allowLoopback = allowLoopback;
    this.allowPrivate = allowPrivate;
  }

  /**
   * @throws FetchFailure {@code bad_url}, {@code dns} or {@code refused_address}, naming the host
   *     and the refused address
   */
  public void check(URI uri) throws FetchFailure {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new FetchFailure(
          ErrorKind.BAD_URL, "only http and https URLs are fetched, not '" + scheme + "'");
    }
    String host = uri.getHost();
    if (host == null || host.isBlank()) {
      throw new FetchFailure(ErrorKind.BAD_URL, "URL has no host: " + SafeUrls.describe(uri));
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      throw new FetchFailure(ErrorKind.DNS, "host " + host + " does not resolve");
    }
    for (InetAddress address : addresses) {
      String why = refusal(address);
      if (why != null) {
        throw new FetchFailure(
            ErrorKind.REFUSED_ADDRESS,
            "refused: "
                + host
                + " resolves to "
                + address.getHostAddress()
                + " ("
                + why
                + "), not fetched");
      }
    }
  }

  /** Why {@code address} is refused, or null when it may be fetched. */
  String refusal(InetAddress address) {
    if (address.isAnyLocalAddress()) {
      return "unspecified address";
    }
    if (address.isMulticastAddress()) {
      return "multicast address";
    }
    if (address.isLinkLocalAddress()) {
      return "link-local address";
    }
    if (address.isLoopbackAddress()) {
      return allowLoopback ? null : "loopback address; allow-loopback is off";
    }
    if (isPrivate(address)) {
      return allowPrivate ? null : "private address; allow-private is off";
    }
    if (address instanceof Inet4Address v4 && isBroadcast(v4)) {
      return "broadcast address";
    }
    return null;
  }

  private static boolean isPrivate(InetAddress address) {
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      int first = b[0] & 0xff;
      int second = b[1] & 0xff;
      return address.isSiteLocalAddress() // 10/8, 172.16/12, 192.168/16
          || (first == 100 && second >= 64 && second <= 127) // carrier-grade NAT 100.64/10
          || first == 0; // "this network" 0/8
    }
    if (address instanceof Inet6Address) {
      return (b[0] & 0xfe) == 0xfc // unique local fc00::/7
          || address.isSiteLocalAddress(); // deprecated fec0::/10
    }
    return false;
  }

  private static boolean isBroadcast(Inet4Address address) {
    for (byte part : address.getAddress()) {
      if ((part & 0xff) != 0xff) {
        return false;
      }
    }
    return true;
  }
}
