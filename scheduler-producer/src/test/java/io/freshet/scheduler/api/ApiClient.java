package io.freshet.scheduler.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client of the running service for the API's integration tests. */
public final class ApiClient {

  public static final String TOKEN = "it-token";
  public static final String READ_TOKEN = "it-read-token";
  public static final String JSON = "application/json";

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  public ApiClient(int port) {
    this.base = "http://localhost:" + port;
  }

  /** A response with its body parsed as JSON (null when empty). */
  public record Response(int status, HttpHeaders headers, String text) {
    public JsonNode json() {
      return text.isEmpty() ? null : JsonMapper.shared().readTree(text);
    }

    /** The problem's errors: one message per problem. */
    public List<String> errors() {
      return json().get("errors").valueStream().map(JsonNode::stringValue).toList();
    }

    public UUID id() {
      return UUID.fromString(json().get("id").stringValue());
    }
  }

  public Response get(String path) {
    return send("GET", path, null, null, READ_TOKEN);
  }

  public Response post(String path, String json) {
    return send("POST", path, JSON, json, TOKEN);
  }

  public Response put(String path, String json) {
    return send("PUT", path, JSON, json, TOKEN);
  }

  public Response delete(String path) {
    return send("DELETE", path, null, null, TOKEN);
  }

  /**
   * @param token the bearer token, or null to send no Authorization header
   */
  public Response send(String method, String path, String contentType, String body, String token) {
    var request = HttpRequest.newBuilder(URI.create(base + path));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Creates a tenant with a unique id and returns the id. */
  public String newTenant(String tier) {
    return newTenant(tier, null);
  }

  public String newTenant(String tier, Integer maxSources) {
    String id = "t-" + UUID.randomUUID().toString().substring(0, 13);
    Response r =
        post(
            "/tenants",
            "{\"id\": \""
                + id
                + "\", \"tier\": \""
                + tier
                + "\", \"max_sources\": "
                + maxSources
                + "}");
    if (r.status() != 201) {
      throw new IllegalStateException("cannot create tenant: " + r.status() + " " + r.text());
    }
    return id;
  }

  /** Creates a feed source of the tenant and returns its id. */
  public UUID newFeed(String tenant, String name, String url) {
    Response r =
        post(
            "/sources",
            "{\"tenant_id\": \"%s\", \"name\": \"%s\", \"connector\": \"feed\", \"url\": \"%s\"}"
                .formatted(tenant, name, url));
    if (r.status() != 201) {
      throw new IllegalStateException("cannot create source: " + r.status() + " " + r.text());
    }
    return r.id();
  }
}
