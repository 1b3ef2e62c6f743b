package io.freshet.worker.http;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Resolves a host name to its addresses; the system resolver in production, a table in tests. */
@FunctionalInterface
public interface AddressResolver {

  InetAddress[] resolve(String host) throws UnknownHostException;

  AddressResolver SYSTEM = InetAddress::getAllByName;
}
