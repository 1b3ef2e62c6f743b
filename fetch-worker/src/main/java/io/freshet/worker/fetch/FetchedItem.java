package io.freshet.worker.fetch;

import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.signal.Signal;

/**
 * One item of a fetch, ready to emit: identity, hash, signal, and what the fetch found about it.
 *
 * @param body the body cut at the configured cap
 * @param truncated whether it was cut
 */
public record FetchedItem(
    String itemId,
    String contentHash,
    RawItem raw,
    Signal signal,
    ItemNovelty novelty,
    String body,
    boolean truncated) {

  /** Whether this item goes out as ContentFetched. */
  public boolean emitted(boolean emitAll) {
    return emitAll || novelty != ItemNovelty.seen;
  }
}
