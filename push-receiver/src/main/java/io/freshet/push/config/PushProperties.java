package io.freshet.push.config;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code freshet.push.*}: the receiver's settings (documented in push-receiver/README.md and
 * application.yml).
 *
 * @param publicBaseUrl the URL hubs reach this service at from the internet; callbacks are {@code
 *     <publicBaseUrl>/websub/<token>}
 * @param secretKey base64 of 32 bytes: the AES key the subscriptions' secrets and tokens are stored
 *     under (its own key, not the scheduler's credentials key)
 * @param lease the lease asked of hubs ({@code hub.lease_seconds}); a hub may grant another
 * @param renewAt the share of a granted lease after which it is renewed
 * @param verifyTimeout how long a request waits for the hub's verification before it is sent again
 * @param pendingFor how long after a request the hub's verification is still answered
 * @param roundInterval pause between two rounds of subscribing, renewing and unsubscribing
 * @param roundBatch most subscriptions one round sends requests for
 * @param maxSilence a source no fetch has announced its hub for this long no longer wants push
 *     (disabled, deleted, or the hub is gone): its subscription is unsubscribed
 * @param factsGranularity the most a source's stored {@code announced_at} and {@code requested_at}
 *     may lag the latest fetch: a fetch that changes nothing a round reads rewrites the source's
 *     row only when a timestamp lags by more than {@code g = min(this, max-silence / 10)}; the
 *     rounds allow for it (never an earlier unsubscription, at most {@code g} later); 0 = every
 *     fetch that moves a timestamp writes it ({@code FactsFreshness})
 * @param hubTimeout how long a request to a hub may take
 * @param allowPrivateHubs whether hubs on loopback, private or link-local addresses may be
 *     contacted (tests and local demos only)
 * @param maxBodySize the largest notification body read; 413 beyond
 * @param coalesceWindow a notification for a source whose body is the same as the last accepted
 *     one's, within this of it, causes no further fetch (a replay, a repeated delivery); one with
 *     another body always does ({@code Coalescer})
 * @param hubRate notifications per second each hub host may send (sustained)
 * @param hubBurst notifications a hub host may send at once
 * @param listenerConcurrency consumers per listener in this instance
 * @param factsFetchMinBytes the facts listeners' {@code fetch.min.bytes}: the broker answers once
 *     this much has gathered, so a poll holds hundreds of fetches (read by the listeners'
 *     annotations; bound here to be validated and documented)
 * @param factsFetchMaxWaitMs the facts listeners' {@code fetch.max.wait.ms}: the longest a fetch's
 *     facts wait for company
 */
@ConfigurationProperties("freshet.push")
public record PushProperties(
    URI publicBaseUrl,
    String secretKey,
    Duration lease,
    double renewAt,
    Duration verifyTimeout,
    Duration pendingFor,
    Duration roundInterval,
    int roundBatch,
    Duration maxSilence,
    Duration factsGranularity,
    Duration hubTimeout,
    boolean allowPrivateHubs,
    DataSize maxBodySize,
    Duration coalesceWindow,
    double hubRate,
    int hubBurst,
    int listenerConcurrency,
    @DefaultValue("65536") int factsFetchMinBytes,
    @DefaultValue("500") int factsFetchMaxWaitMs) {

  public PushProperties {
    if (publicBaseUrl == null
        || !("https".equals(publicBaseUrl.getScheme()) || "http".equals(publicBaseUrl.getScheme()))
        || publicBaseUrl.getHost() == null) {
      throw new IllegalArgumentException(
          "freshet.push.public-base-url: must be the http(s) URL hubs reach this service at, got "
              + publicBaseUrl);
    }
    if (factsFetchMinBytes < 1 || factsFetchMinBytes > 52_428_800) {
      throw new IllegalArgumentException(
          "freshet.push.facts-fetch-min-bytes: must be 1 to 52428800, got " + factsFetchMinBytes);
    }
    if (factsFetchMaxWaitMs < 0 || factsFetchMaxWaitMs > 30_000) {
      throw new IllegalArgumentException(
          "freshet.push.facts-fetch-max-wait-ms: must be 0 to 30000, got " + factsFetchMaxWaitMs);
    }
    if (secretKey == null || secretKey.isBlank()) {
      throw new IllegalArgumentException(
          "freshet.push.secret-key: required (base64 of 32 bytes, e.g. openssl rand -base64 32)");
    }
  }

  /** Never the key. */
  @Override
  public String toString() {
    return "PushProperties[publicBaseUrl=" + publicBaseUrl + ", lease=" + lease + "]";
  }
}
