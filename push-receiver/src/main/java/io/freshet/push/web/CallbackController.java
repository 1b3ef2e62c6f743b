package io.freshet.push.web;

import io.freshet.push.config.PushProperties;
import io.freshet.push.events.SubscriptionEvents;
import io.freshet.push.store.SubscriptionStore;
import io.freshet.push.websub.Coalescer;
import io.freshet.push.websub.HubRateLimit;
import io.freshet.push.websub.Signature;
import io.freshet.push.websub.Subscription;
import io.freshet.push.websub.SubscriptionState;
import io.freshet.push.websub.Tokens;
import io.freshet.push.websub.Verification;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The callbacks hubs call, {@code /websub/<token>}: {@code GET} verifies intent or announces a
 * denial, {@code POST} delivers a notification. A token not shaped like ours is not looked up.
 *
 * <p>Notifications: unknown callback 404; unsubscribed or denied 410 (the hub may drop the
 * subscription); body over {@code max-body-size} 413; over the hub's rate 429 with {@code
 * Retry-After}; a missing or invalid signature, or a subscription not verified or past its lease,
 * 202 and dropped (the Recommendation: acknowledge, ignore); a valid one 202 once its {@code
 * PushReceived} is on the topic (or coalesced into the last one), 503 when the broker does not take
 * it (the hub retries).
 */
@RestController
class CallbackController {

  private static final Logger log = LoggerFactory.getLogger(CallbackController.class);
  private static final int LOGGED_MAX = 10_000;

  private final SubscriptionStore store;
  private final Verification verification;
  private final Coalescer coalescer;
  private final HubRateLimit rateLimit;
  private final KafkaTemplate<String, byte[]> producer;
  private final org.apache.kafka.common.serialization.Serializer<PushReceived> serializer;
  private final PushProperties props;
  private final Clock clock;
  private final MeterRegistry meters;
  private final SubscriptionEvents events;
  private final Set<String> loggedRejections = ConcurrentHashMap.newKeySet();

  CallbackController(
      SubscriptionStore store,
      Verification verification,
      Coalescer coalescer,
      HubRateLimit rateLimit,
      KafkaTemplate<String, byte[]> producer,
      FreshetTopics topics,
      PushProperties props,
      Clock clock,
      MeterRegistry meters,
      SubscriptionEvents events) {
    this.store = store;
    this.events = events;
    this.verification = verification;
    this.coalescer = coalescer;
    this.rateLimit = rateLimit;
    this.producer = producer;
    this.serializer = topics.pushReceived().valueSerde().serializer();
    this.props = props;
    this.clock = clock;
    this.meters = meters;
  }

  @GetMapping("/websub/{token}")
  ResponseEntity<String> verify(@PathVariable String token, HttpServletRequest request) {
    Subscription s = Tokens.wellFormed(token) ? store.byToken(token).orElse(null) : null;
    Map<String, String> query = new HashMap<>();
    for (String name :
        new String[] {
          "hub.mode", "hub.topic", "hub.challenge", "hub.lease_seconds", "hub.reason"
        }) {
      String v = request.getParameter(name);
      if (v != null) {
        query.put(name, v);
      }
    }
    var answer = verification.answer(s, query);
    return switch (answer) {
      case Verification.Answer.Echo echo -> {
        if (!store.transition(s, echo.next(), clock.instant())) {
          // The round moved the subscription on since it was read (a request sent again): the
          // hub verifies that one next.
          verified("not_found");
          yield ResponseEntity.notFound().build();
        }
        verified("echoed_" + query.get("hub.mode"));
        if (echo.next().state() == SubscriptionState.ACTIVE) {
          // Live until the granted lease ends (an unsubscription already told the scheduler
          // push ended when the round sent it).
          events.live(echo.next());
        }
        log.info(
            "hub {} verified {} of source {}: {}",
            echo.next().hub(),
            query.get("hub.mode"),
            echo.next().sourceId(),
            echo.next().state());
        yield ResponseEntity.ok()
            .contentType(MediaType.TEXT_PLAIN)
            .header("X-Content-Type-Options", "nosniff")
            .body(echo.challenge());
      }
      case Verification.Answer.Denied denied -> {
        store.save(denied.next(), clock.instant()); // a denial stands whatever the round did
        verified("denied");
        events.ended(denied.next(), SubscriptionEvents.Ended.DENIED);
        log.warn(
            "hub {} denied the subscription of source {} to {}: {}",
            denied.next().hub(),
            denied.next().sourceId(),
            denied.next().topic(),
            denied.next().reason());
        yield ResponseEntity.ok().build();
      }
      case Verification.Answer.NotFound nf -> {
        verified("not_found");
        log.debug("verification refused ({}) for callback {}", nf.why(), Tokens.redact(token));
        yield ResponseEntity.notFound().build();
      }
    };
  }

  @PostMapping("/websub/{token}")
  ResponseEntity<Void> notify(@PathVariable String token, HttpServletRequest request)
      throws IOException {
    Subscription s = Tokens.wellFormed(token) ? store.byToken(token).orElse(null) : null;
    if (s == null) {
      return dropped("unknown_callback", HttpStatus.NOT_FOUND);
    }
    if (s.state() == SubscriptionState.UNSUBSCRIBED || s.state() == SubscriptionState.DENIED) {
      return dropped("gone", HttpStatus.GONE);
    }
    long max = props.maxBodySize().toBytes();
    if (request.getContentLengthLong() > max) {
      return dropped("too_large", HttpStatus.CONTENT_TOO_LARGE);
    }
    if (!rateLimit.tryAcquire(s.hub().getHost())) {
      notification("rate_limited");
      return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS)
          .header(HttpHeaders.RETRY_AFTER, Long.toString(rateLimit.retryAfter().toSeconds()))
          .build();
    }
    byte[] body = readAtMost(request.getInputStream(), max);
    if (body == null) {
      return dropped("too_large", HttpStatus.CONTENT_TOO_LARGE);
    }
    Instant now = clock.instant();
    if (!s.live(now)) {
      return dropped("not_live", HttpStatus.ACCEPTED);
    }
    Signature.Result result =
        Signature.check(request.getHeader("X-Hub-Signature"), body, s.secret());
    if (result != Signature.Result.VALID) {
      if (loggedRejections.size() < LOGGED_MAX
          && loggedRejections.add(s.id() + "/" + result.tag())) {
        log.warn(
            "dropped a notification for source {} from hub {}: signature {} (logged once per"
                + " subscription)",
            s.sourceId(),
            s.hub(),
            result.tag());
      }
      return dropped("signature_" + result.tag(), HttpStatus.ACCEPTED);
    }
    store.notified(s.id(), now);
    if (!coalescer.admit(s.sourceId(), body)) {
      return dropped("coalesced", HttpStatus.ACCEPTED);
    }
    var event =
        PushReceived.newBuilder()
            .setSourceId(s.sourceId())
            .setTenantId(s.tenantId())
            .setSubscriptionId(s.id().toString())
            .setReceivedAt(now)
            .setHub(s.hub().toString())
            .build();
    try {
      byte[] value = serializer.serialize(FreshetTopics.PUSH_RECEIVED, event);
      producer.send(FreshetTopics.PUSH_RECEIVED, s.sourceId(), value).get(15, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      coalescer.forget(s.sourceId());
      log.warn("could not publish PushReceived of source {}: {}", s.sourceId(), e.toString());
      return dropped("broker_unavailable", HttpStatus.SERVICE_UNAVAILABLE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      coalescer.forget(s.sourceId());
      return dropped("broker_unavailable", HttpStatus.SERVICE_UNAVAILABLE);
    }
    notification("accepted");
    return ResponseEntity.accepted().build();
  }

  /** The body, or null when it is longer than {@code max} bytes (only max + 1 are read). */
  static byte[] readAtMost(InputStream in, long max) throws IOException {
    byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
    return body.length > max ? null : body;
  }

  private ResponseEntity<Void> dropped(String result, HttpStatus status) {
    notification(result);
    return ResponseEntity.status(status).build();
  }

  private void notification(String result) {
    meters.counter("freshet.push.notifications", "result", result).increment();
  }

  private void verified(String result) {
    meters.counter("freshet.push.verifications", "result", result).increment();
  }
}
