package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.ServerHints;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The server's hints as floors under the due time, each capped; jitter that spreads, never hurries.
 */
class ServerRulesTest {

  private static final Instant AT = Instant.parse("2026-11-24T10:00:00Z"); // a Tuesday
  private static final ServerRules RULES = ServerRules.DEFAULTS;

  private static ServerHints hints() {
    return ServerHints.newBuilder().build();
  }

  @Test
  void theLongestHintIsTheFloorAndAHintBelowTheDueTimeChangesNothing() {
    ServerHints h = hints();
    h.setMaxAgeSeconds(1800L);
    h.setTtlMinutes(90);
    h.setUpdatePeriodSeconds(3600L);

    var floor = RULES.hintFloor(h, AT.plus(Duration.ofMinutes(20)), AT);

    assertThat(floor.due()).isEqualTo(AT.plus(Duration.ofMinutes(90)));
    assertThat(floor.hint()).isEqualTo("ttl");
    assertThat(RULES.hintFloor(h, AT.plus(Duration.ofHours(2)), AT)).isNull();
    assertThat(RULES.hintFloor(null, AT, AT)).isNull();
  }

  @Test
  void aBogusHintOrRetryAfterIsCappedAtTheMaximum() {
    ServerHints h = hints();
    h.setMaxAgeSeconds(365L * 24 * 3600);

    var floor = RULES.hintFloor(h, AT.plus(Duration.ofMinutes(20)), AT);

    assertThat(floor.due()).isEqualTo(AT.plus(Duration.ofHours(24)));
    ServerHints absurd = hints();
    absurd.setMaxAgeSeconds(Long.MAX_VALUE);
    absurd.setUpdatePeriodSeconds(Long.MAX_VALUE);
    assertThat(RULES.hintFloor(absurd, AT, AT).due()).isEqualTo(AT.plus(Duration.ofHours(24)));
    assertThat(RULES.capRetryAfter(Instant.parse("9999-12-31T23:59:59Z"), AT))
        .isEqualTo(AT.plus(Duration.ofHours(24)));
    assertThat(RULES.capRetryAfter(AT.plusSeconds(60), AT)).isEqualTo(AT.plusSeconds(60));
    assertThat(RULES.capRetryAfter(null, AT)).isNull();
  }

  @Test
  void skippedHoursAndDaysPushTheDueTimeToTheNextAllowedHourInGmt() {
    ServerHints h = hints();
    h.setSkipHours(List.of(10, 11, 12));
    var floor = RULES.hintFloor(h, AT.plus(Duration.ofMinutes(15)), AT);
    assertThat(floor.due()).isEqualTo(Instant.parse("2026-11-24T13:00:00Z"));
    assertThat(floor.hint()).isEqualTo("skip");

    ServerHints weekend = hints();
    weekend.setSkipDays(List.of(2)); // Tuesday
    assertThat(RULES.hintFloor(weekend, AT.plus(Duration.ofMinutes(15)), AT).due())
        .isEqualTo(Instant.parse("2026-11-25T00:00:00Z"));

    ServerHints longSkip = hints();
    longSkip.setSkipDays(List.of(2, 3, 4)); // Tuesday to Thursday: capped a day after the fetch
    assertThat(RULES.hintFloor(longSkip, AT.plus(Duration.ofMinutes(15)), AT).due())
        .isEqualTo(AT.plus(Duration.ofHours(24)));
  }

  @Test
  void jitterIsDeterministicNeverEarlierAndSpreadsSourcesThatFailTogether() {
    Instant due = AT.plus(Duration.ofHours(1));
    Map<Long, Integer> perSecond = new HashMap<>();
    for (int i = 0; i < 1_000; i++) {
      UUID id = new UUID(0x1234L, i);
      Instant jittered = Jitter.later(due, AT, 0.1, Duration.ofMinutes(15), id, 7);
      assertThat(jittered).isAfterOrEqualTo(due).isBefore(due.plus(Duration.ofMinutes(6)));
      assertThat(Jitter.later(due, AT, 0.1, Duration.ofMinutes(15), id, 7)).isEqualTo(jittered);
      perSecond.merge(jittered.getEpochSecond(), 1, Integer::sum);
    }
    // 1,000 sources failing together at one instant retry over 6 minutes, at most a few a second.
    int busiest = perSecond.values().stream().max(Integer::compare).orElseThrow();
    System.out.printf(
        "jitter: 1000 sources retry in %d distinct seconds, at most %d in one%n",
        perSecond.size(), busiest);
    assertThat(perSecond.size()).isGreaterThan(250);
    assertThat(busiest).isLessThanOrEqualTo(12);
  }

  @Test
  void anImportIsSpreadOverItsSpan() {
    Duration span = Duration.ofMinutes(15);
    Instant first = Instant.MAX;
    Instant last = Instant.MIN;
    for (int i = 0; i < 1_000; i++) {
      Instant due = Jitter.spread(AT, span, UUID.nameUUIDFromBytes(("s" + i).getBytes()));
      assertThat(due).isBetween(AT, AT.plus(span));
      first = due.isBefore(first) ? due : first;
      last = due.isAfter(last) ? due : last;
    }
    assertThat(Duration.between(first, last)).isGreaterThan(Duration.ofMinutes(14));
    assertThat(Jitter.spread(AT, Duration.ZERO, UUID.randomUUID())).isEqualTo(AT);
  }
}
