package io.freshet.sink.activity;

import static io.freshet.sink.testing.ContentEvents.completed;
import static io.freshet.sink.testing.ContentEvents.digest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FetchOutcomeTest {

  private static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  private static FetchCompleted withStatus(FetchStatus status) {
    var e = completed("s", "r", T, List.of(digest("a", 1, ItemNovelty.seen)));
    e.setStatus(status);
    return e;
  }

  @Test
  void onlyAFetchThatReadTheSourceListsItsItemsAndNotModifiedListsWhatTheLastReadListed() {
    assertThat(FetchOutcome.of(withStatus(FetchStatus.ok)).listing())
        .isEqualTo(FetchOutcome.Listing.ITEMS);
    assertThat(FetchOutcome.of(withStatus(FetchStatus.partial)).listing())
        .isEqualTo(FetchOutcome.Listing.ITEMS);
    assertThat(FetchOutcome.of(withStatus(FetchStatus.not_modified)).listing())
        .isEqualTo(FetchOutcome.Listing.UNCHANGED_SINCE_LAST_READ);
    assertThat(FetchOutcome.of(withStatus(FetchStatus.failed)).listing())
        .isEqualTo(FetchOutcome.Listing.NOTHING);
    assertThat(FetchOutcome.of(withStatus(FetchStatus.expired)).listing())
        .isEqualTo(FetchOutcome.Listing.NOTHING);
  }

  @Test
  void countsWhatWasReadEmittedAndSeen() {
    var outcome =
        FetchOutcome.of(
            completed(
                "s",
                "r",
                T,
                List.of(
                    digest("a", 1, ItemNovelty.added),
                    digest("b", 2, ItemNovelty.changed),
                    digest("c", 1, ItemNovelty.seen))));

    assertThat(outcome.listed()).hasSize(3);
    assertThat(outcome.itemCount()).isEqualTo(2);
    assertThat(outcome.unchanged()).isEqualTo(1);
  }

  @Test
  void anOutcomeWithoutIdsOrEndingBeforeItStartedIsPoisonNamingTheField() {
    var noRequest = withStatus(FetchStatus.ok);
    noRequest.setRequestId(" ");
    assertThatThrownBy(() -> FetchOutcome.of(noRequest)).hasMessageContaining("request_id");
    var backwards = withStatus(FetchStatus.ok);
    backwards.setFinishedAt(T.minusSeconds(1));
    assertThatThrownBy(() -> FetchOutcome.of(backwards)).hasMessageContaining("finished_at");
    var longRequest = withStatus(FetchStatus.ok);
    longRequest.setRequestId("r".repeat(3000)); // the activity log's primary key
    assertThatThrownBy(() -> FetchOutcome.of(longRequest))
        .hasMessageStartingWith("request_id is 3000 characters, at most 256");
  }

  @Test
  void aNulCharacterInTheErrorOrAListedItemIdIsStoredAsTheReplacementCharacter() {
    var failed = withStatus(FetchStatus.failed);
    failed.setErrorMessage("bad \u0000 byte");
    assertThat(FetchOutcome.of(failed).errorMessage()).isEqualTo("bad \uFFFD byte");
    var outcome =
        FetchOutcome.of(completed("s", "r", T, List.of(digest("a\u0000", 1, ItemNovelty.added))));
    assertThat(outcome.listed()).extracting(FetchOutcome.Listed::itemId).containsExactly("a\uFFFD");
  }

  @Test
  void aStatusOfANewerSchemaIsPoisonNotAFailure() {
    assertThatThrownBy(() -> FetchOutcome.of(withStatus(FetchStatus.unknown)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("newer schema");
  }
}
