package io.freshet.sink.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client of the sink's API for tests: JSON in, status and JSON out. */
public final class ApiClient {

  /** A response: its status and its body read as JSON (null when empty or not JSON). */
  public record Response(int status, JsonNode json, String text, String contentType) {}

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;
  private final String token;

  public ApiClient(int port, String token) {
    this.base = "http://localhost:" + port;
    this.token = token;
  }

  /** GET with the bearer token (every read needs a key). */
  public Response get(String path) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", "Bearer " + token)
            .GET());
  }

  /** GET with {@code authorization} as the Authorization header, or none when null. */
  public Response getAs(String path, String authorization) {
    var request = HttpRequest.newBuilder(URI.create(base + path)).GET();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return send(request);
  }

  /** POST with the bearer token. */
  public Response post(String path, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** POST without a token. */
  public Response postAnonymously(String path, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /**
   * {@code method} ({@code GET} or {@code POST} with a JSON body) with {@code authorization} as the
   * Authorization header, or none when null.
   */
  public Response request(String method, String path, String authorization, String body) {
    var request = HttpRequest.newBuilder(URI.create(base + path));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    if ("POST".equals(method)) {
      request
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body));
    } else {
      request.GET();
    }
    return send(request);
  }

  private Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json = null;
      try {
        json = r.body().isBlank() ? null : JSON.readTree(r.body());
      } catch (RuntimeException notJson) {
        json = null;
      }
      return new Response(
          r.statusCode(), json, r.body(), r.headers().firstValue("Content-Type").orElse(""));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
