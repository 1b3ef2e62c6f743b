package io.freshet.testsupport;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.util.List;

/**
 * A scriptable web server for fetcher tests (WireMock on a random loopback port): serve a feed,
 * answer conditional requests with 304, fail with a status, delay, and count what was asked. Close
 * it after use.
 */
public final class FeedServer implements AutoCloseable {

  private final WireMockServer server;

  private FeedServer(WireMockServer server) {
    this.server = server;
  }

  /** Starts a server on a random port of 127.0.0.1. */
  public static FeedServer start() {
    var server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
    server.start();
    return new FeedServer(server);
  }

  /** Absolute URL of a path on this server. */
  public String url(String path) {
    return server.baseUrl() + path;
  }

  /** Serves {@code body} at {@code path} with a content type and an optional ETag. */
  public FeedServer serve(String path, String contentType, String body, String etag) {
    ResponseDefinitionBuilder response =
        aResponse().withStatus(200).withHeader("Content-Type", contentType).withBody(body);
    if (etag != null) {
      response.withHeader("ETag", etag);
      server.stubFor(
          get(urlPathEqualTo(path))
              .withHeader("If-None-Match", WireMock.equalTo(etag))
              .atPriority(1)
              .willReturn(aResponse().withStatus(304).withHeader("ETag", etag)));
    }
    server.stubFor(get(urlPathEqualTo(path)).atPriority(5).willReturn(response));
    return this;
  }

  /** Answers {@code path} with a bare status (e.g. 500, 429) and optional Retry-After seconds. */
  public FeedServer failWith(String path, int status, Integer retryAfterSeconds) {
    var response = aResponse().withStatus(status);
    if (retryAfterSeconds != null) {
      response.withHeader("Retry-After", retryAfterSeconds.toString());
    }
    server.stubFor(get(urlPathEqualTo(path)).atPriority(5).willReturn(response));
    return this;
  }

  /** Registers any WireMock stub, for cases the helpers above do not cover. */
  public FeedServer stub(MappingBuilder mapping) {
    server.stubFor(mapping);
    return this;
  }

  /** Requests received for {@code path}, oldest first. */
  public List<LoggedRequest> requests(String path) {
    return server.findAll(getRequestedFor(urlPathEqualTo(path)));
  }

  /** Requests received for paths matching the regular expression {@code pathRegex}. */
  public List<LoggedRequest> requestsMatching(String pathRegex) {
    return server.findAll(getRequestedFor(urlPathMatching(pathRegex)));
  }

  /** Forgets every stub and every recorded request. */
  public void reset() {
    server.resetAll();
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.stop();
  }
}
