package io.freshet.push.facts;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.PoisonRecordException;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Learns which sources are push-capable from the topics the fetch path already writes, as the
 * receiver's own consumer group (read_committed, the kit's failure rule): FetchRequested gives the
 * URL fetched and whether the source sends credentials; a successful FetchCompleted gives the hub
 * and self URL the document announced (or that it announces none any more).
 *
 * <p>A poll's records are stored in one transaction, as they would be one record at a time: its
 * requests in one statement, its outcomes in another (one more per source repeated in the poll), in
 * their order (one round trip and one commit per poll instead of per record: every fetch passes
 * here twice). A record that changes nothing a round reads, within the granularity, writes nothing
 * ({@link FactsFreshness}). An undecodable record goes to the dead-letter topic after the rest is
 * stored; an outage fails the poll, which is retried with nothing committed; a poll the database
 * refuses for another reason is stored again one record at a time, so the refused record is
 * dead-lettered alone.
 */
@Component
class SourceFactsListener {

  /**
   * Both listeners wait for company: the broker answers a fetch once {@code facts-fetch-min-bytes}
   * have gathered or {@code facts-fetch-max-wait-ms} passed, so a poll (one transaction, one offset
   * commit) holds hundreds of fetches instead of tens. Facts need no sub-second latency.
   */
  static final String FETCH_MIN_BYTES =
      "fetch.min.bytes=${freshet.push.facts-fetch-min-bytes:65536}";

  static final String FETCH_MAX_WAIT =
      "fetch.max.wait.ms=${freshet.push.facts-fetch-max-wait-ms:500}";

  private final SourceFacts facts;
  private final TransactionTemplate tx;
  private final DeadLetterPublisher deadLetters;
  private final RecordDecoder<FetchRequested> requests;
  private final RecordDecoder<FetchCompleted> outcomes;

  SourceFactsListener(
      SourceFacts facts,
      TransactionTemplate tx,
      DeadLetterPublisher deadLetters,
      FreshetTopics topics) {
    this.facts = facts;
    this.tx = tx;
    this.deadLetters = deadLetters;
    this.requests = new RecordDecoder<>(topics.fetchRequested());
    this.outcomes = new RecordDecoder<>(topics.fetchCompleted());
  }

  @KafkaListener(
      id = "push-fetch-requested",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_REQUESTED,
      containerFactory = "batchListenerFactory",
      properties = {FETCH_MIN_BYTES, FETCH_MAX_WAIT})
  void onRequested(List<ConsumerRecord<String, byte[]>> records) {
    store(
        records,
        requests::decode,
        (List<FetchRequested> poll) ->
            facts.requestedAll(
                poll.stream()
                    .filter(r -> plausibleId(r.getSourceId()))
                    // in source id order, as onCompleted: see there
                    .sorted(Comparator.comparing(FetchRequested::getSourceId))
                    .map(
                        r ->
                            new SourceFacts.Requested(
                                r.getSourceId(),
                                r.getTenantId(),
                                r.getUrl(),
                                r.getCredentialsEncrypted() != null,
                                r.getRequestedAt()))
                    .toList()));
  }

  @KafkaListener(
      id = "push-fetch-completed",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_COMPLETED,
      containerFactory = "batchListenerFactory",
      properties = {FETCH_MIN_BYTES, FETCH_MAX_WAIT})
  void onCompleted(List<ConsumerRecord<String, byte[]>> records) {
    store(
        records,
        outcomes::decode,
        // Rows in source id order (a stable sort: a source's records keep their order, and sources
        // are independent), as onRequested writes them: the two listeners' transactions write the
        // same rows, and taking their locks in one order, they never deadlock.
        (List<FetchCompleted> poll) ->
            facts.completedAll(
                poll.stream()
                    .sorted(Comparator.comparing(FetchCompleted::getSourceId))
                    .map(SourceFactsListener::completed)
                    .filter(Objects::nonNull)
                    .toList()));
  }

  /** What an outcome says of its source's hub, or null when it says nothing. */
  private static SourceFacts.Completed completed(FetchCompleted c) {
    if (!plausibleId(c.getSourceId())) {
      return null;
    }
    // Only a read document says what it announces; a failure says nothing of it. A 304 says the
    // document is the one last read, so it still announces the hub that one did: without this, a
    // pushed feed that publishes nothing for max-silence (its safety-net polls all 304) would be
    // unsubscribed though still fetched (found by local-stack's DemoHubSubscriberIT).
    if (c.getStatus() == FetchStatus.ok || c.getStatus() == FetchStatus.partial) {
      return SourceFacts.Completed.read(
          c.getSourceId(), c.getTenantId(), c.getHubUrl(), c.getSelfUrl(), c.getFinishedAt());
    } else if (c.getStatus() == FetchStatus.not_modified) {
      return SourceFacts.Completed.notModified(c.getSourceId(), c.getFinishedAt());
    }
    return null;
  }

  /**
   * Decodes a poll (tombstones skipped, undecodable records set aside unless the registry is
   * unreachable), stores the rest with {@code storeAll} in one transaction, then dead-letters what
   * was set aside.
   */
  private <V> void store(
      List<ConsumerRecord<String, byte[]>> records,
      Function<ConsumerRecord<String, byte[]>, V> decode,
      Consumer<List<V>> storeAll) {
    List<V> values = new ArrayList<>(records.size());
    List<ConsumerRecord<String, byte[]>> decoded = new ArrayList<>(records.size());
    List<ConsumerRecord<String, byte[]>> poison = new ArrayList<>();
    List<RuntimeException> why = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        V value = decode.apply(record);
        if (value != null) {
          values.add(value);
          decoded.add(record);
        }
      } catch (PoisonRecordException e) {
        if (Failures.isOutage(e)) {
          throw e; // the registry is unreachable: the poll is retried, nothing committed
        }
        poison.add(record);
        why.add(e);
      }
    }
    try {
      tx.executeWithoutResult(status -> storeAll.accept(values));
    } catch (RuntimeException e) {
      if (Failures.isOutage(e)) {
        throw e;
      }
      // the database refused one record without saying which: one at a time, each its own
      // transaction, so that only the refused one is dead-lettered (storing one again is harmless)
      for (int i = 0; i < values.size(); i++) {
        V value = values.get(i);
        try {
          tx.executeWithoutResult(status -> storeAll.accept(List.of(value)));
        } catch (RuntimeException one) {
          if (Failures.isOutage(one)) {
            throw one;
          }
          poison.add(decoded.get(i));
          why.add(one);
        }
      }
    }
    for (int i = 0; i < poison.size(); i++) {
      deadLetters.publish(poison.get(i), why.get(i));
    }
  }

  /** Freshet's source ids are UUIDs; anything blank or over 256 characters is not stored. */
  private static boolean plausibleId(String id) {
    return id != null && !id.isBlank() && id.length() <= 256;
  }
}
