package io.freshet.push.hub;

import io.freshet.push.websub.HubRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends subscribe and unsubscribe requests to hubs: a form POST, following at most {@value
 * #MAX_REDIRECTS} temporary or permanent redirects (307, 308: the method and body are kept, as
 * websub.rocks' cases 203 and 204 expect), each hop checked by {@link HubAddresses}. A hub's answer
 * body is never read beyond its status.
 */
public final class HubClient {

  static final int MAX_REDIRECTS = 3;

  /** How a request to a hub went. */
  public enum Outcome {
    /** 2xx: the hub will verify our intent. */
    ACCEPTED,
    /** another status: the hub refused. */
    REFUSED,
    /** no answer (connection, timeout). */
    FAILED,
    /** not sent: the hub's address is not public, or its URL is not http(s). */
    BLOCKED
  }

  private final HttpClient http;
  private final HubAddresses addresses;
  private final Duration timeout;

  public HubClient(HubAddresses addresses, Duration timeout) {
    this.addresses = addresses;
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(timeout)
            .build();
  }

  /** Sends {@code request}; never throws for what the hub does. */
  public Outcome send(HubRequest request) {
    URI target = request.hub();
    for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (addresses.refusal(target) != null) {
        return Outcome.BLOCKED;
      }
      HttpResponse<Void> response;
      try {
        response =
            http.send(
                HttpRequest.newBuilder(target)
                    .timeout(timeout)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("User-Agent", "Freshet-push-receiver (WebSub subscriber)")
                    .POST(HttpRequest.BodyPublishers.ofString(request.encoded()))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
      } catch (IOException | IllegalArgumentException e) {
        return Outcome.FAILED;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Outcome.FAILED;
      }
      int status = response.statusCode();
      if (status >= 200 && status < 300) {
        return Outcome.ACCEPTED;
      }
      if ((status == 307 || status == 308)
          && response.headers().firstValue("Location").isPresent()) {
        try {
          target = target.resolve(response.headers().firstValue("Location").get());
        } catch (IllegalArgumentException e) {
          return Outcome.REFUSED;
        }
        continue;
      }
      return Outcome.REFUSED;
    }
    return Outcome.REFUSED;
  }
}
