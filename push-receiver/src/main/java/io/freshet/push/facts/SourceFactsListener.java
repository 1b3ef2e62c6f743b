package io.freshet.push.facts;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Learns which sources are push-capable from the topics the fetch path already writes, as the
 * receiver's own consumer group (read_committed, the kit's failure rule): FetchRequested gives the
 * URL fetched and whether the source sends credentials; a successful FetchCompleted gives the hub
 * and self URL the document announced (or that it announces none any more).
 */
@Component
class SourceFactsListener {

  private final SourceFacts facts;
  private final RecordDecoder<FetchRequested> requests;
  private final RecordDecoder<FetchCompleted> outcomes;

  SourceFactsListener(SourceFacts facts, FreshetTopics topics) {
    this.facts = facts;
    this.requests = new RecordDecoder<>(topics.fetchRequested());
    this.outcomes = new RecordDecoder<>(topics.fetchCompleted());
  }

  @KafkaListener(
      id = "push-fetch-requested",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_REQUESTED,
      containerFactory = "recordListenerFactory")
  void onRequested(ConsumerRecord<String, byte[]> record) {
    FetchRequested r = requests.decode(record);
    if (r == null || !plausibleId(r.getSourceId())) {
      return;
    }
    facts.requested(
        r.getSourceId(),
        r.getTenantId(),
        r.getUrl(),
        r.getCredentialsEncrypted() != null,
        r.getRequestedAt());
  }

  @KafkaListener(
      id = "push-fetch-completed",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_COMPLETED,
      containerFactory = "recordListenerFactory")
  void onCompleted(ConsumerRecord<String, byte[]> record) {
    FetchCompleted c = outcomes.decode(record);
    if (c == null || !plausibleId(c.getSourceId())) {
      return;
    }
    // Only a read document says what it announces; a failure says nothing of it. A 304 says the
    // document is the one last read, so it still announces the hub that one did: without this, a
    // pushed feed that publishes nothing for max-silence (its safety-net polls all 304) would be
    // unsubscribed though still fetched (found by local-stack's DemoHubSubscriberIT).
    if (c.getStatus() == FetchStatus.ok || c.getStatus() == FetchStatus.partial) {
      facts.announced(
          c.getSourceId(), c.getTenantId(), c.getHubUrl(), c.getSelfUrl(), c.getFinishedAt());
    } else if (c.getStatus() == FetchStatus.not_modified) {
      facts.stillAnnounced(c.getSourceId(), c.getFinishedAt());
    }
  }

  /** Freshet's source ids are UUIDs; anything blank or over 256 characters is not stored. */
  private static boolean plausibleId(String id) {
    return id != null && !id.isBlank() && id.length() <= 256;
  }
}
