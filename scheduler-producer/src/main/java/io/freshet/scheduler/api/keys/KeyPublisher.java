package io.freshet.scheduler.api.keys;

import io.freshet.kit.security.KeyTopicReader;
import io.freshet.schemas.avro.ApiKeyState;
import io.freshet.schemas.topic.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.serialization.Serializer;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sends each key's latest state to the key topic, from the table (the row is its own outbox): locks
 * the keys whose {@code version} is ahead of {@code published_version} ({@code SKIP LOCKED}, so two
 * scheduler instances never send one key's states out of order), sends their whole state, waits for
 * the broker's acknowledgements, then records them as published and commits. A failure anywhere
 * leaves them unpublished, to be sent again by the next round: the topic is compacted and every
 * record is a whole state, so a repeat is harmless.
 */
class KeyPublisher {

  private static final int BATCH = 200;

  private final KeyRepository keys;
  private final KafkaTemplate<String, byte[]> template;
  private final Topic<String, ApiKeyState> topic;
  private final Serializer<ApiKeyState> values;
  private final TransactionTemplate tx;
  private final Duration timeout;

  KeyPublisher(
      KeyRepository keys,
      KafkaTemplate<String, byte[]> template,
      Topic<String, ApiKeyState> topic,
      TransactionTemplate tx,
      Duration timeout) {
    this.keys = keys;
    this.template = template;
    this.topic = topic;
    this.values = topic.valueSerde().serializer();
    this.tx = tx;
    this.timeout = timeout;
  }

  /** Publishes every pending change; how many keys were sent. */
  int publishPending() {
    int total = 0;
    int sent;
    do {
      sent = publishBatch();
      total += sent;
    } while (sent == BATCH);
    return total;
  }

  private int publishBatch() {
    Integer sent =
        tx.execute(
            status -> {
              List<KeyRow> rows = keys.lockUnpublished(BATCH);
              List<CompletableFuture<SendResult<String, byte[]>>> acks = new ArrayList<>();
              for (KeyRow row : rows) {
                byte[] value = values.serialize(topic.name(), KeyTopicReader.event(row.state()));
                acks.add(template.send(topic.name(), row.id(), value));
              }
              template.flush();
              for (var ack : acks) {
                await(ack);
              }
              rows.forEach(row -> keys.markPublished(row.id(), row.version()));
              return rows.size();
            });
    return sent == null ? 0 : sent;
  }

  /** Marks every key for publishing again, then publishes: the start-up reconcile. */
  int republishAll() {
    tx.executeWithoutResult(status -> keys.republishAll());
    return publishPending();
  }

  private void await(CompletableFuture<SendResult<String, byte[]>> ack) {
    try {
      ack.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while publishing API keys", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "key topic " + topic.name() + " did not acknowledge within " + timeout, e);
    }
  }
}
