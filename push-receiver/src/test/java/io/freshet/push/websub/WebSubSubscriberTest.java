package io.freshet.push.websub;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.push.websub.Verification.Answer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The subscriber's rules of the W3C WebSub Recommendation. Where websub.rocks has a subscriber case
 * for a rule, the test is named after it (its 1xx cases are discovery, done by the fetch-worker;
 * 2xx subscribing; 3xx distribution); the other tests cover rules websub.rocks lists unnumbered
 * ("1xx: sends an unsubscription request", "callback URL is unique and unguessable") or the
 * Recommendation states (denial, leases, renewal).
 */
class WebSubSubscriberTest {

  private static final URI TOPIC = URI.create("https://blog.example/feed.xml");
  private static final URI HUB = URI.create("https://hub.example/");
  private static final URI BASE = URI.create("https://push.freshet.example/");
  private static final Duration LEASE = Duration.ofDays(10);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final Verification verification = new Verification(clock, Duration.ofHours(1));
  private final LeasePlan plan = new LeasePlan(clock, 0.8, Duration.ofMinutes(10));

  private Subscription requested() {
    return Subscription.request(
        UUID.randomUUID(), "src-1", "tenant-a", TOPIC, HUB, new Tokens(), clock.instant());
  }

  private static Map<String, String> verify(
      String mode, String topic, String challenge, String lease) {
    var q = new HashMap<String, String>();
    q.put("hub.mode", mode);
    q.put("hub.topic", topic);
    if (challenge != null) {
      q.put("hub.challenge", challenge);
    }
    if (lease != null) {
      q.put("hub.lease_seconds", lease);
    }
    return q;
  }

  private Subscription active() {
    var answer =
        verification.answer(requested(), verify("subscribe", TOPIC.toString(), "c", "864000"));
    return ((Answer.Echo) answer).next();
  }

  // --- subscribing -------------------------------------------------------------------------

  @Test
  void requestsASubscriptionWithSecretLeaseAndAnUnguessableCallback() {
    var s = requested();
    var form = HubRequest.of(Intent.SUBSCRIBE, s, BASE, LEASE).fields();

    assertThat(form)
        .containsEntry("hub.mode", "subscribe")
        .containsEntry("hub.topic", TOPIC.toString())
        .containsEntry("hub.lease_seconds", "864000")
        .containsEntry("hub.secret", s.secret())
        .containsEntry("hub.callback", "https://push.freshet.example/websub/" + s.token());
    assertThat(s.secret().getBytes(StandardCharsets.UTF_8)).hasSizeLessThan(200);
    assertThat(Tokens.wellFormed(s.token())).isTrue();
    assertThat(HubRequest.of(Intent.SUBSCRIBE, s, BASE, LEASE).encoded())
        .contains("hub.mode=subscribe")
        .contains("hub.topic=https%3A%2F%2Fblog.example%2Ffeed.xml");
    assertThat(HubRequest.of(Intent.SUBSCRIBE, s, BASE, LEASE).toString())
        .doesNotContain(s.secret())
        .doesNotContain(s.token());
    assertThat(s.toString()).doesNotContain(s.secret()).doesNotContain(s.token());
  }

  @Test
  void callbackUrlIsUniquePerSubscriptionAndUnguessable() {
    var tokens = new Tokens();
    var seen = new HashSet<String>();
    for (int i = 0; i < 1000; i++) {
      assertThat(seen.add(tokens.callbackToken())).isTrue();
    }
    assertThat(seen).allMatch(t -> t.length() == 43 && Tokens.wellFormed(t));
    assertThat(Tokens.redact(seen.iterator().next())).hasSize(7);
  }

  @Test
  void sendsAnUnsubscriptionRequestWithoutSecretOrLease() {
    var form = HubRequest.of(Intent.UNSUBSCRIBE, active(), BASE, LEASE).fields();
    assertThat(form)
        .containsEntry("hub.mode", "unsubscribe")
        .doesNotContainKeys("hub.secret", "hub.lease_seconds");
  }

  @Test
  void case200SubscribesToTheSelfUrlTheFeedReports() {
    // The topic is the feed's rel=self (chosen by the caller from FetchCompleted.self_url);
    // a verification naming the URL fetched instead is not ours.
    var s =
        Subscription.request(
            UUID.randomUUID(),
            "src-1",
            "",
            URI.create("https://blog.example/self"),
            HUB,
            new Tokens(),
            clock.instant());
    assertThat(HubRequest.of(Intent.SUBSCRIBE, s, BASE, LEASE).fields())
        .containsEntry("hub.topic", "https://blog.example/self");
    assertThat(verification.answer(s, verify("subscribe", TOPIC.toString(), "c", "60")))
        .isInstanceOf(Answer.NotFound.class);
    assertThat(verification.answer(s, verify("subscribe", "https://blog.example/self", "c", "60")))
        .isInstanceOf(Answer.Echo.class);
  }

  // --- verification of intent ----------------------------------------------------------------

  @Test
  void echoesTheChallengeOfAPendingSubscribeAndRecordsTheLease() {
    var answer =
        verification.answer(requested(), verify("subscribe", TOPIC.toString(), "xyz-123", "3600"));

    assertThat(answer).isInstanceOf(Answer.Echo.class);
    var echo = (Answer.Echo) answer;
    assertThat(echo.challenge()).isEqualTo("xyz-123");
    assertThat(echo.next().state()).isEqualTo(SubscriptionState.ACTIVE);
    assertThat(echo.next().leaseExpiresAt()).isEqualTo(clock.instant().plusSeconds(3600));
    assertThat(echo.next().live(clock.instant())).isTrue();
  }

  @Test
  void case205RejectsAVerificationRequestWithAnInvalidTopicUrl() {
    var answer =
        verification.answer(
            requested(), verify("subscribe", "https://evil.example/feed", "c", "60"));
    assertThat(answer).isEqualTo(new Answer.NotFound("topic_mismatch"));
  }

  @Test
  void anUnknownCallbackIs404() {
    assertThat(verification.answer(null, verify("subscribe", TOPIC.toString(), "c", "60")))
        .isEqualTo(new Answer.NotFound("unknown_callback"));
  }

  @Test
  void aVerificationWithNothingPendingIs404() {
    // Already active, nothing pending: a replayed verification is not echoed.
    var s = active();
    assertThat(verification.answer(s, verify("subscribe", TOPIC.toString(), "again", "60")))
        .isEqualTo(new Answer.NotFound("not_pending"));
    // An unsubscribe we never asked for.
    assertThat(verification.answer(s, verify("unsubscribe", TOPIC.toString(), "c", null)))
        .isEqualTo(new Answer.NotFound("not_pending"));
  }

  @Test
  void aVerificationLongAfterTheRequestIs404() {
    var s = requested();
    clock.advance(Duration.ofHours(2));
    assertThat(verification.answer(s, verify("subscribe", TOPIC.toString(), "c", "60")))
        .isEqualTo(new Answer.NotFound("pending_too_old"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "0", "-5", "abc", "1e3", "99999999999", "31708801"})
  void aSubscribeVerificationWithoutAPlausibleLeaseIs404(String lease) {
    assertThat(verification.answer(requested(), verify("subscribe", TOPIC.toString(), "c", lease)))
        .isEqualTo(new Answer.NotFound("bad_lease"));
  }

  @Test
  void aVerificationWithoutLeaseOrChallengeOrWithAnotherModeIs404() {
    assertThat(verification.answer(requested(), verify("subscribe", TOPIC.toString(), "c", null)))
        .isEqualTo(new Answer.NotFound("bad_lease"));
    assertThat(verification.answer(requested(), verify("subscribe", TOPIC.toString(), null, "60")))
        .isEqualTo(new Answer.NotFound("bad_challenge"));
    assertThat(
            verification.answer(
                requested(), verify("subscribe", TOPIC.toString(), "x".repeat(1025), "60")))
        .isEqualTo(new Answer.NotFound("bad_challenge"));
    assertThat(verification.answer(requested(), verify("publish", TOPIC.toString(), "c", "60")))
        .isEqualTo(new Answer.NotFound("bad_mode"));
  }

  @Test
  void unsubscribeIsVerifiedOnlyWhilePending() {
    var s = active();
    var step = plan.next(s, false);
    assertThat(step.send()).isEqualTo(Intent.UNSUBSCRIBE);
    assertThat(step.next().state()).isEqualTo(SubscriptionState.UNSUBSCRIBING);

    var answer =
        verification.answer(step.next(), verify("unsubscribe", TOPIC.toString(), "bye", null));
    assertThat(answer).isInstanceOf(Answer.Echo.class);
    assertThat(((Answer.Echo) answer).challenge()).isEqualTo("bye");
    var gone = ((Answer.Echo) answer).next();
    assertThat(gone.state()).isEqualTo(SubscriptionState.UNSUBSCRIBED);
    assertThat(gone.live(clock.instant())).isFalse();
    // A subscribe verification for an unsubscribed callback is not ours.
    assertThat(verification.answer(gone, verify("subscribe", TOPIC.toString(), "c", "60")))
        .isInstanceOf(Answer.NotFound.class);
  }

  // --- denial ---------------------------------------------------------------------------------

  @Test
  void aDenialOfAPendingSubscriptionIsRecordedWithItsReason() {
    var q = verify("denied", TOPIC.toString(), null, null);
    q.put("hub.reason", "not allowed\nhere");
    var answer = verification.answer(requested(), q);

    assertThat(answer).isInstanceOf(Answer.Denied.class);
    var denied = ((Answer.Denied) answer).next();
    assertThat(denied.state()).isEqualTo(SubscriptionState.DENIED);
    assertThat(denied.reason()).isEqualTo("not allowed here");
    assertThat(plan.next(denied, true).send()).as("a denied subscription is not retried").isNull();
  }

  @Test
  void aHubMayDenyAnActiveSubscriptionLater() {
    var answer = verification.answer(active(), verify("denied", TOPIC.toString(), null, null));
    assertThat(((Answer.Denied) answer).next().live(clock.instant())).isFalse();
  }

  @Test
  void aDenialForAnotherTopicIs404() {
    assertThat(
            verification.answer(
                requested(), verify("denied", "https://other.example/", null, null)))
        .isEqualTo(new Answer.NotFound("topic_mismatch"));
  }

  // --- leases and renewal ----------------------------------------------------------------------

  @Test
  void renewsAt80PercentOfTheLeaseAndStaysLiveMeanwhile() {
    var s = active(); // 10-day lease
    clock.advance(Duration.ofDays(7).plusHours(23));
    assertThat(plan.next(s, true).send()).isNull();

    clock.advance(Duration.ofHours(1)); // day 8 = 80 %
    var step = plan.next(s, true);
    assertThat(step.send()).isEqualTo(Intent.SUBSCRIBE);
    var renewing = step.next();
    assertThat(renewing.state()).isEqualTo(SubscriptionState.EXPIRING);
    assertThat(renewing.live(clock.instant())).isTrue();

    // Unanswered renewal: sent again after the verify timeout, not before.
    clock.advance(Duration.ofMinutes(5));
    assertThat(plan.next(renewing, true).send()).isNull();
    clock.advance(Duration.ofMinutes(5));
    assertThat(plan.next(renewing, true).send()).isEqualTo(Intent.SUBSCRIBE);

    // The hub verifies the renewal: a new lease from now.
    var renewed =
        ((Answer.Echo)
                verification.answer(renewing, verify("subscribe", TOPIC.toString(), "r", "864000")))
            .next();
    assertThat(renewed.state()).isEqualTo(SubscriptionState.ACTIVE);
    assertThat(renewed.leaseExpiresAt()).isEqualTo(clock.instant().plus(LEASE));
  }

  @Test
  void aLeaseThatLapsesIsRequestedAgain() {
    var s = active();
    clock.advance(LEASE.plusSeconds(1));
    assertThat(s.live(clock.instant())).isFalse();
    var step = plan.next(s, true);
    assertThat(step.send()).isEqualTo(Intent.SUBSCRIBE);
    assertThat(step.next().state()).isEqualTo(SubscriptionState.REQUESTED);
  }

  @Test
  void anUnansweredRequestIsSentAgainAfterTheVerifyTimeout() {
    var s = requested();
    assertThat(plan.next(s, true).send()).isNull();
    clock.advance(Duration.ofMinutes(10));
    assertThat(plan.next(s, true).send()).isEqualTo(Intent.SUBSCRIBE);
  }

  @Test
  void aSourceThatNoLongerWantsPushIsUnsubscribedAndALapsedOneJustExpires() {
    assertThat(plan.next(active(), false).send()).isEqualTo(Intent.UNSUBSCRIBE);
    var s = active();
    clock.advance(LEASE.plusSeconds(1));
    var step = plan.next(s, false);
    assertThat(step.send()).isNull();
    assertThat(step.next().state()).isEqualTo(SubscriptionState.EXPIRED);
    assertThat(plan.next(requested(), false).send()).isNull();
  }

  // --- distribution ---------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"sha1", "sha256", "sha384", "sha512"})
  void case300AcceptsASignedNotificationForEachMethod(String method) {
    byte[] body = "<feed>new item</feed>".getBytes(StandardCharsets.UTF_8);
    String header = Signature.sign(method, "s3cret", body);
    assertThat(Signature.check(header, body, "s3cret")).isEqualTo(Signature.Result.VALID);
    assertThat(
            Signature.check(
                header.toUpperCase().replace(method.toUpperCase() + "=", method + "="),
                body,
                "s3cret"))
        .as("hex in upper case")
        .isEqualTo(Signature.Result.VALID);
  }

  @ParameterizedTest
  @ValueSource(strings = {"sha1", "sha256", "sha384", "sha512"})
  void case301RejectsAnInvalidSignatureForEachMethod(String method) {
    byte[] body = "<feed>new item</feed>".getBytes(StandardCharsets.UTF_8);
    assertThat(Signature.check(Signature.sign(method, "other", body), body, "s3cret"))
        .isEqualTo(Signature.Result.MISMATCH);
    // The right secret over another body (a tampered payload).
    assertThat(Signature.check(Signature.sign(method, "s3cret", "x".getBytes()), body, "s3cret"))
        .isEqualTo(Signature.Result.MISMATCH);
  }

  @Test
  void case302RejectsANotificationWithoutSignature() {
    assertThat(Signature.check(null, new byte[0], "s3cret")).isEqualTo(Signature.Result.MISSING);
    assertThat(Signature.check("  ", new byte[0], "s3cret")).isEqualTo(Signature.Result.MISSING);
  }

  @Test
  void rejectsMalformedSignaturesAndUnknownMethods() {
    byte[] body = "b".getBytes();
    assertThat(Signature.check("md5=abcd", body, "k")).isEqualTo(Signature.Result.UNKNOWN_METHOD);
    assertThat(Signature.check("sha256", body, "k")).isEqualTo(Signature.Result.MALFORMED);
    assertThat(Signature.check("sha256=zz", body, "k")).isEqualTo(Signature.Result.MALFORMED);
    assertThat(Signature.check("sha256=abc", body, "k")).isEqualTo(Signature.Result.MALFORMED);
    assertThat(Signature.check("sha256=abcd", body, "k"))
        .as("too short")
        .isEqualTo(Signature.Result.MALFORMED);
    String sha1Length = Signature.sign("sha1", "k", body).substring(5);
    assertThat(Signature.check("sha256=" + sha1Length, body, "k"))
        .isEqualTo(Signature.Result.MALFORMED);
  }

  @Test
  void notificationsAreAcceptedOnlyWhileVerifiedAndInsideTheLease() {
    assertThat(requested().live(clock.instant())).isFalse();
    var s = active();
    assertThat(s.live(clock.instant())).isTrue();
    assertThat(s.notified(clock.instant()).lastNotificationAt()).isEqualTo(clock.instant());
    clock.advance(LEASE);
    assertThat(s.live(clock.instant())).isFalse();
  }

  @Test
  void aReplayWithinTheWindowIsAbsorbedButANewBodyAlwaysAsksForAFetch() {
    var coalescer = new Coalescer(clock, Duration.ofSeconds(30), 1000);
    byte[] first = "<feed>1</feed>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] second = "<feed>1 2</feed>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(coalescer.admit("a", first)).isTrue();
    assertThat(coalescer.admit("a", first)).as("replayed at once").isFalse();
    assertThat(coalescer.admit("b", first)).as("another source").isTrue();
    clock.advance(Duration.ofSeconds(5));
    // a second item announced 5 s after the first: the first fetch may have run already
    assertThat(coalescer.admit("a", second)).as("a new body").isTrue();
    assertThat(coalescer.admit("a", second)).isFalse();
    clock.advance(Duration.ofSeconds(29));
    assertThat(coalescer.admit("a", second)).isFalse();
    clock.advance(Duration.ofSeconds(1));
    assertThat(coalescer.admit("a", second)).as("past the window").isTrue();
    assertThat(coalescer.admit("a", new byte[0])).as("a thin ping").isTrue();
    assertThat(coalescer.admit("a", new byte[0])).as("every thin ping").isTrue();
  }

  @Test
  void theCoalescerForgetsTheLeastRecentSourcesBeyondItsCapacity() {
    var coalescer = new Coalescer(clock, Duration.ofMinutes(1), 2);
    byte[] body = {1};
    coalescer.admit("a", body);
    coalescer.admit("b", body);
    coalescer.admit("c", body);
    assertThat(coalescer.admit("a", body)).as("forgotten: lets one more fetch through").isTrue();
    assertThat(coalescer.admit("c", body)).isFalse();
  }

  @Test
  void eachHubHasItsOwnRateLimit() {
    var limit = new HubRateLimit(clock, 2, 3, 100);
    assertThat(limit.tryAcquire("hub-a")).isTrue();
    assertThat(limit.tryAcquire("hub-a")).isTrue();
    assertThat(limit.tryAcquire("hub-a")).isTrue();
    assertThat(limit.tryAcquire("hub-a")).as("burst spent").isFalse();
    assertThat(limit.tryAcquire("hub-b")).as("another hub").isTrue();
    clock.advance(Duration.ofMillis(500)); // one token back at 2/s
    assertThat(limit.tryAcquire("hub-a")).isTrue();
    assertThat(limit.tryAcquire("hub-a")).isFalse();
    assertThat(limit.retryAfter()).isEqualTo(Duration.ofSeconds(1));
  }
}
