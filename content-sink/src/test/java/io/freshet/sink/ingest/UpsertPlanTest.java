package io.freshet.sink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.sink.testing.ContentEvents;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UpsertPlanTest {

  private static final Instant T = Instant.parse("2026-11-01T10:00:00Z");
  private static final Duration RETENTION = Duration.ofDays(30);

  private static ContentVersion v(String item, int version, int minute) {
    return ContentVersion.of(
        ContentEvents.item("s1", item, version, T.plusSeconds(60L * minute)), RETENTION);
  }

  @Test
  void repeatsOfOneVersionCollapseIntoOneRowThatKeepsTheLatestFetchTime() {
    var plan = UpsertPlan.of(List.of(v("a", 1, 0), v("b", 1, 1), v("a", 1, 5)));

    assertThat(plan.rows()).extracting(ContentVersion::itemId).containsExactly("a", "b");
    assertThat(plan.lastSeen()).containsExactly(T.plusSeconds(300), T.plusSeconds(60));
    assertThat(plan.collapsed()).isEqualTo(1);
    assertThat(plan.previousInBatch()).containsExactly(-1, -1);
  }

  @Test
  void anItemChangedTwiceInOneBatchIsLinkedInConsumptionOrder() {
    var plan = UpsertPlan.of(List.of(v("a", 1, 0), v("a", 2, 1), v("b", 1, 2), v("a", 3, 3)));

    assertThat(plan.rows())
        .extracting(ContentVersion::title)
        .containsExactly("a v1", "a v2", "b v1", "a v3");
    assertThat(plan.previousInBatch()).containsExactly(-1, 0, -1, 1);
  }

  @Test
  void anItemThatFlipsBackFollowsTheVersionSeenLast() {
    var plan = UpsertPlan.of(List.of(v("a", 1, 0), v("a", 2, 1), v("a", 1, 2), v("a", 3, 3)));

    // v1 seen again becomes the latest; v3 is a new version of it, not of v2.
    assertThat(plan.rows())
        .extracting(ContentVersion::title)
        .containsExactly("a v1", "a v2", "a v3");
    assertThat(plan.previousInBatch()).containsExactly(-1, 0, 0);
  }

  private static ContentVersion inRequest(String item, int version, String request) {
    var e = ContentEvents.item("s1", item, version, T);
    e.setRequestId(request);
    return ContentVersion.of(e, RETENTION);
  }

  @Test
  void aVersionRepeatedByAnotherRequestIsListedOncePerRequestAndRowInConsumptionOrder() {
    var plan =
        UpsertPlan.of(
            List.of(
                inRequest("a", 1, "r1"),
                inRequest("b", 1, "r1"),
                inRequest("a", 1, "r2"),
                inRequest("a", 1, "r2"),
                inRequest("b", 1, "r3"),
                inRequest("a", 1, "r1")));

    assertThat(plan.rows()).extracting(ContentVersion::requestId).containsExactly("r1", "r1");
    // r2's second record of a and r1's own repeat of a add nothing; every repeat still collapsed.
    assertThat(plan.repeats())
        .containsExactly(
            new UpsertPlan.Repeat(0, "r2", "tenant-a"), new UpsertPlan.Repeat(1, "r3", "tenant-a"));
    assertThat(plan.collapsed()).isEqualTo(4);
  }

  @Test
  void aBatchWithoutRepeatsFromOtherRequestsListsNone() {
    var plan = UpsertPlan.of(List.of(inRequest("a", 1, "r1"), inRequest("a", 2, "r2")));

    assertThat(plan.repeats()).isEmpty();
    assertThat(plan.previousInBatch()).containsExactly(-1, 0);
  }

  @Test
  void expiryIsTheFetchTimePlusTheEventsRetentionOrTheDefault() {
    var withOwn = ContentEvents.item("s1", "a", 1, T);
    withOwn.setRetention(Duration.ofDays(2).toMillis());

    assertThat(ContentVersion.of(withOwn, RETENTION).expiresAt())
        .isEqualTo(T.plus(Duration.ofDays(2)));
    assertThat(v("a", 1, 0).expiresAt()).isEqualTo(T.plus(RETENTION));
  }

  @Test
  void anEventThatCannotBeStoredNamesTheField() {
    var badHash = ContentEvents.item("s1", "a", 1, T);
    badHash.setContentHash("not-a-hash");
    var blankItem = ContentEvents.item("s1", " ", 1, T);
    var zeroRetention = ContentEvents.item("s1", "a", 1, T);
    zeroRetention.setRetention(0L);

    assertThatThrownBy(() -> ContentVersion.of(badHash, RETENTION))
        .hasMessageContaining("content_hash");
    assertThatThrownBy(() -> ContentVersion.of(blankItem, RETENTION))
        .hasMessageContaining("item_id");
    assertThatThrownBy(() -> ContentVersion.of(zeroRetention, RETENTION))
        .hasMessageContaining("retention");
  }
}
