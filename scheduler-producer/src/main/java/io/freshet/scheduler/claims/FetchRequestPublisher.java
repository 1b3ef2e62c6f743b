package io.freshet.scheduler.claims;

import io.freshet.kit.ops.OutageLog;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.topic.FreshetTopics;
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
import org.springframework.kafka.support.ProducerListener;
import org.springframework.kafka.support.SendResult;

/**
 * Produces a claim's requests and waits until the broker has acknowledged every one (idempotent
 * producer, acks=all). Throws if any is not acknowledged in time, so the claim rolls back and the
 * sources are claimed again later: a request is never lost between database and topic.
 *
 * <p>Requests are serialised here, before anything is sent, so that a request that cannot be
 * serialised or is too large for the broker is known per source ({@link #serialize}) and can be set
 * aside without failing the others.
 */
public class FetchRequestPublisher {

  private final KafkaTemplate<String, byte[]> template;
  private final Topic<String, FetchRequested> topic;
  private final Serializer<FetchRequested> serializer;
  private final int maxRecordBytes;

  public FetchRequestPublisher(
      KafkaTemplate<String, byte[]> template, FreshetTopics topics, int maxRecordBytes) {
    this.template = template;
    // Failures are reported once per round by publishAll, not one ERROR line per record (a frozen
    // broker made hundreds per round).
    template.setProducerListener(new ProducerListener<>() {});
    this.topic = topics.fetchRequested();
    this.serializer = topic.valueSerde().serializer();
    this.maxRecordBytes = maxRecordBytes;
  }

  /**
   * The request's bytes.
   *
   * @throws IllegalArgumentException naming the reason when this request can never be sent (too
   *     large); a registry outage surfaces as another exception and fails the whole claim
   */
  public byte[] serialize(FetchRequested request) {
    byte[] bytes = serializer.serialize(topic.name(), request);
    if (bytes.length > maxRecordBytes) {
      throw new IllegalArgumentException(
          "request is "
              + bytes.length
              + " bytes, over the "
              + maxRecordBytes
              + "-byte record limit");
    }
    return bytes;
  }

  /**
   * Sends all, keyed by host, and blocks until all are acknowledged or {@code timeout} passes. A
   * failure is one exception that says how many were acknowledged and why the rest were not — the
   * round's one summary, instead of an error line per record.
   */
  public void publishAll(List<Keyed> requests, Duration timeout) {
    List<CompletableFuture<SendResult<String, byte[]>>> sent = new ArrayList<>(requests.size());
    Throwable cause;
    try {
      for (Keyed r : requests) {
        sent.add(template.send(topic.name(), r.key(), r.value()));
      }
      template.flush();
      CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return;
    } catch (ExecutionException e) {
      cause = e.getCause();
    } catch (TimeoutException e) {
      cause = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cause = e;
    } catch (RuntimeException e) {
      cause = e;
    }
    long acked = sent.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).count();
    throw new PublishFailedException(
        "broker acknowledged "
            + acked
            + " of "
            + requests.size()
            + " requests within "
            + timeout.toMillis()
            + " ms: "
            + OutageLog.rootCause(cause),
        cause);
  }

  /** A serialised request and its partition key. */
  public record Keyed(String key, byte[] value) {}

  /** The claim's requests were not all acknowledged; the claim must roll back. */
  public static final class PublishFailedException extends RuntimeException {
    PublishFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
