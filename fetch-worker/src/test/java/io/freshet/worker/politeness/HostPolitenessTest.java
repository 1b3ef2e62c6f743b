package io.freshet.worker.politeness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HostPolitenessTest {

  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

  private final FakeTime time = new FakeTime(T0);
  private final HostPoliteness politeness =
      new HostPoliteness(
          new PolitenessSettings(
              Duration.ofSeconds(1), 2, Duration.ofSeconds(30), Duration.ofMinutes(5)),
          time,
          time.sleeper());

  @Test
  void requestsToOneHostStartAtLeastTheMinimumDelayApart() throws Exception {
    List<Instant> starts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      try (var permit = politeness.acquire("feeds.example")) {
        starts.add(time.instant());
      }
    }
    for (int i = 1; i < starts.size(); i++) {
      assertThat(Duration.between(starts.get(i - 1), starts.get(i)))
          .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }
  }

  @Test
  void aCrawlDelayRaisesOneHostsSpacingNeverBelowTheConfiguredOneAndCanBeReplaced()
      throws Exception {
    politeness.crawlDelay("Pages.Example", Duration.ofSeconds(5));
    politeness.acquire("pages.example").close();
    Instant first = time.instant();
    politeness.acquire("pages.example").close();
    assertThat(Duration.between(first, time.instant())).isEqualTo(Duration.ofSeconds(5));
    // another host keeps the configured 1 s
    politeness.acquire("other.example").close();
    Instant other = time.instant();
    politeness.acquire("other.example").close();
    assertThat(Duration.between(other, time.instant())).isEqualTo(Duration.ofSeconds(1));

    // a Crawl-delay shorter than the configured delay does not lower it
    politeness.crawlDelay("pages.example", Duration.ofMillis(200));
    assertThat(politeness.minDelayFor("pages.example")).isEqualTo(Duration.ofSeconds(1));
    politeness.crawlDelay("pages.example", Duration.ZERO);
    assertThat(politeness.minDelayFor("pages.example")).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void anotherHostIsNotDelayedByABusyOne() throws Exception {
    for (int i = 0; i < 3; i++) {
      politeness.acquire("busy.example").close();
    }
    Instant before = time.instant();
    politeness.acquire("other.example").close();
    assertThat(time.instant()).isEqualTo(before);
  }

  @Test
  void aThrottledHostWaitsForItsRetryAfterOthersDoNot() throws Exception {
    politeness.coolDown("slow.example", T0.plusSeconds(120));
    politeness.acquire("fast.example").close();
    assertThat(time.instant()).isEqualTo(T0);
    politeness.acquire("slow.example").close();
    assertThat(time.instant()).isEqualTo(T0.plusSeconds(120));
    assertThat(politeness.coolDownCount()).isEqualTo(1);
  }

  @Test
  void coolDownsWithoutRetryAfterDoubleAndAreCappedAndAnAnswerResetsThem() {
    assertThat(politeness.coolDown("h", null)).isEqualTo(T0.plusSeconds(30));
    assertThat(politeness.coolDown("h", null)).isEqualTo(T0.plusSeconds(60));
    assertThat(politeness.coolDown("h", null)).isEqualTo(T0.plusSeconds(120));
    assertThat(politeness.coolDown("h", null)).isEqualTo(T0.plusSeconds(240));
    assertThat(politeness.coolDown("h", null)).isEqualTo(T0.plusSeconds(300)); // cap
    assertThat(politeness.coolDown("h", T0.plusSeconds(3600))).isEqualTo(T0.plusSeconds(300));
    assertThat(politeness.hostsCoolingDown()).isEqualTo(1);
    politeness.answered("h");
    time.advance(Duration.ofSeconds(301));
    assertThat(politeness.coolDown("h", null)).isEqualTo(time.instant().plusSeconds(30));
  }

  @Test
  void atMostMaxConcurrentRequestsToOneHostAtATime() throws Exception {
    var real =
        new HostPoliteness(
            new PolitenessSettings(Duration.ZERO, 2, Duration.ofSeconds(1), Duration.ofSeconds(1)),
            java.time.Clock.systemUTC(),
            io.freshet.worker.http.Sleeper.SYSTEM);
    var first = real.acquire("h");
    var second = real.acquire("h");
    var third = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              try (var p = real.acquire("h")) {
                third.countDown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    assertThat(third.await(300, TimeUnit.MILLISECONDS)).isFalse();
    first.close();
    assertThat(third.await(5, TimeUnit.SECONDS)).isTrue();
    second.close();
  }

  @Test
  void idleHostsAreForgottenPastTheBoundButNotOnesWithAPendingDelayOrCoolDown() throws Exception {
    var bounded =
        new HostPoliteness(
            new PolitenessSettings(
                Duration.ofSeconds(1), 2, Duration.ofSeconds(30), Duration.ofMinutes(5)),
            time,
            time.sleeper(),
            3);
    bounded.coolDown("throttled.example", null);
    for (int i = 0; i < 5; i++) {
      bounded.acquire("host" + i + ".example").close();
      time.advance(Duration.ofSeconds(2));
    }
    assertThat(bounded.hostCount()).isLessThanOrEqualTo(4);
    // The throttled host's cool-down survived the clean-up: it still waits.
    Instant before = time.instant();
    bounded.acquire("throttled.example").close();
    assertThat(time.instant()).isAfter(before);
  }

  @Test
  void aCoolDownLongerThanTheCallerWaitsIsRefusedAtOnceWithItsEnd() throws Exception {
    politeness.coolDown("throttled.example", T0.plusSeconds(120));
    assertThatThrownBy(() -> politeness.acquire("throttled.example", Duration.ofSeconds(30), null))
        .isInstanceOfSatisfying(
            FetchFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ErrorKind.HOST_COOLING_DOWN);
              assertThat(f.retryAfter()).isEqualTo(T0.plusSeconds(120));
            });
    assertThat(time.instant()).isEqualTo(T0); // did not wait
    politeness.acquire("throttled.example", Duration.ofSeconds(300), null).close();
    assertThat(time.instant()).isEqualTo(T0.plusSeconds(120));
  }

  @Test
  void aTurnThatWouldStartAfterTheRequestsNotAfterIsRefusedAtOnceAndStaysFree() throws Exception {
    Instant notAfter = T0.plusMillis(1_500);
    politeness.acquire("busy.example", null, notAfter).close(); // T0
    politeness.acquire("busy.example", null, notAfter).close(); // T0 + 1 s
    assertThat(time.instant()).isEqualTo(T0.plusSeconds(1));
    assertThatThrownBy(() -> politeness.acquire("busy.example", null, notAfter)) // T0 + 2 s
        .isInstanceOfSatisfying(
            FetchFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ErrorKind.EXPIRED);
              assertThat(f.attempts()).isZero();
              assertThat(f.getMessage()).contains("busy.example").contains("not_after");
            });
    assertThat(time.instant()).isEqualTo(T0.plusSeconds(1)); // did not wait
    // The refused turn was not taken: the next request with a later lease gets it.
    politeness.acquire("busy.example", null, T0.plusSeconds(60)).close();
    assertThat(time.instant()).isEqualTo(T0.plusSeconds(2));
  }
}
