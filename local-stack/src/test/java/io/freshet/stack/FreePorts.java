package io.freshet.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Free ports for the stacks tests and benchmarks start (never {@code ./freshet up}'s defaults). */
public final class FreePorts {

  /** Ports handed out in this JVM, never handed out twice. */
  private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /**
   * A port free now, below Linux's ephemeral range (32768-60999): a port from that range, picked
   * here and bound only later by a child process, can meanwhile become the local port of any
   * outgoing connection on the machine (it did, once: a service failed to start on one). Never the
   * same port twice in this JVM, so that stacks started side by side (failsafe runs two e2e classes
   * at once) cannot both be handed a port that neither has bound yet.
   */
  public static int next() {
    var random = ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int port = 20_000 + random.nextInt(12_000);
      if (!GIVEN.add(port)) {
        continue;
      }
      try (var socket = new ServerSocket(port)) {
        return socket.getLocalPort();
      } catch (IOException inUse) {
        // try another
      }
    }
    throw new UncheckedIOException(new IOException("no free port in 20000-31999"));
  }
}
