package io.freshet.push.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A WebSub hub on loopback that records the subscribe and unsubscribe requests it receives and
 * answers 202 ({@code /hub}), or redirects them with 307 to {@code /hub} ({@code /moved}); the test
 * plays the hub's side of verification and distribution itself.
 */
final class ScriptedHub implements AutoCloseable {

  private final HttpServer server;
  private final List<Map<String, String>> requests = new CopyOnWriteArrayList<>();

  ScriptedHub() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/hub",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          var form = new LinkedHashMap<String, String>();
          for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
              form.put(
                  URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                  URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
          }
          requests.add(form);
          exchange.sendResponseHeaders(202, -1);
          exchange.close();
        });
    server.createContext(
        "/moved",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().add("Location", "/hub");
          exchange.sendResponseHeaders(307, -1);
          exchange.close();
        });
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
  }

  URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** The forms received, oldest first. */
  List<Map<String, String>> requests() {
    return List.copyOf(requests);
  }

  /** The forms received for {@code topic} in {@code mode}. */
  List<Map<String, String>> requests(String mode, String topic) {
    return requests.stream()
        .filter(f -> mode.equals(f.get("hub.mode")) && topic.equals(f.get("hub.topic")))
        .toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
