package io.freshet.worker.kafka;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.serde.PoisonRecordException;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.fetch.UnusableRequestException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Answers each poll's {@code FetchRequested} records inside one Kafka transaction (see ADR 0004):
 * every request of the batch is fetched at once, each on its own virtual thread (per-host
 * politeness spaces same-host ones), then their {@code ContentFetched} and {@code FetchCompleted}
 * records are produced and the batch's offsets committed with them. A subscriber reading committed
 * records never sees half a fetch; a crash or rebalance before the commit leaves the offsets
 * uncommitted, so the requests are fetched again (by this or another instance) and the sink absorbs
 * repeats.
 *
 * <p>A partition's records whose previous worker died while fetching them are fetched one at a
 * time, and a request that kills workers is answered {@code crashed_worker} and dead-lettered
 * ({@link CrashGuard}).
 *
 * <p>Poison (undecodable, unknown connector) goes to the DLQ in the same transaction. An exception
 * here means the broker or registry failed: the transaction is aborted and the batch retried.
 */
@Component
class FetchRequestListener implements DisposableBean {

  private static final Logger log = LoggerFactory.getLogger(FetchRequestListener.class);

  private final SourceFetcher fetcher;
  private final KafkaTemplate<String, byte[]> template;
  private final DeadLetterPublisher deadLetters;
  private final FetchMetrics metrics;
  private final CrashGuard guard;
  private final RecordDecoder<FetchRequested> decoder;
  private final Serializer<ContentFetched> contentSerializer;
  private final Serializer<io.freshet.schemas.avro.FetchCompleted> completedSerializer;
  private final FreshetTopics topics;
  private final ExecutorService fetches = Executors.newVirtualThreadPerTaskExecutor();

  FetchRequestListener(
      SourceFetcher fetcher,
      KafkaTemplate<String, byte[]> outputTemplate,
      DeadLetterPublisher deadLetters,
      FetchMetrics metrics,
      CrashGuard guard,
      FreshetTopics topics) {
    this.fetcher = fetcher;
    this.template = outputTemplate;
    this.deadLetters = deadLetters;
    this.metrics = metrics;
    this.guard = guard;
    this.decoder = new RecordDecoder<>(topics.fetchRequested());
    this.contentSerializer = topics.contentFetched().valueSerde().serializer();
    this.completedSerializer = topics.fetchCompleted().valueSerde().serializer();
    this.topics = topics;
  }

  @KafkaListener(
      id = "fetch-requested",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_REQUESTED,
      containerFactory = "fetchRequestListenerFactory")
  void onBatch(List<ConsumerRecord<String, byte[]>> records, Consumer<?, ?> consumer)
      throws Exception {
    Map<TopicPartition, CrashGuard.Plan> plans = new LinkedHashMap<>();
    List<Runnable> deadLetters = new ArrayList<>();
    List<Decoded> together = new ArrayList<>();
    List<Decoded> alone = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      CrashGuard.Plan plan =
          plans.computeIfAbsent(
              new TopicPartition(record.topic(), record.partition()),
              tp -> {
                CrashGuard.Plan p = guard.plan(tp, record.offset());
                if (p.isolated()) {
                  metrics.isolated();
                }
                return p;
              });
      FetchRequested request;
      try {
        request = decoder.decode(record);
      } catch (PoisonRecordException e) {
        if (Failures.isOutage(e)) {
          throw e; // the registry is unreachable: the batch is aborted and retried, nothing lost
        }
        deadLetters.add(() -> deadLetter(record, e));
        continue;
      }
      if (request != null) { // a tombstone asks for nothing
        (plan.isolated() ? alone : together).add(new Decoded(record, request, plan));
      }
    }
    guard.markBatch(consumer, plans.values());
    List<FetchResult> results = new ArrayList<>(records.size());
    results.addAll(guard.together(() -> fetchAll(together, deadLetters)));
    for (Decoded d : alone) {
      long offset = d.record().offset();
      if (guard.condemned(d.plan(), offset)) {
        int crashes = d.plan().crashesOf(offset);
        log.error(
            "request {} for source {} ({}-{}@{}) was alone in flight when {} worker(s) died:"
                + " answered failed (crashed_worker) and dead-lettered, not fetched again",
            d.request().getRequestId(),
            d.request().getSourceId(),
            d.record().topic(),
            d.record().partition(),
            offset,
            crashes);
        FetchResult crashed = fetcher.crashed(d.request(), crashes);
        metrics.condemned(d.request(), crashed.completed());
        results.add(crashed);
        deadLetters.add(
            () ->
                deadLetter(
                    d.record(),
                    new PoisonRecordException(
                        describe(
                            d.record(),
                            new IllegalStateException(
                                crashed.completed().getErrorMessage()
                                    + " (error_kind crashed_worker)")),
                        null)));
        continue;
      }
      guard.markAlone(consumer, d.plan(), offset);
      results.addAll(guard.alone(() -> fetchAll(List.of(d), deadLetters)));
    }
    // Nothing is produced before every fetch of the batch has ended. A transaction that has written
    // to a partition holds back read_committed readers of that partition — every producer's records
    // there, not only its own — until it commits; writing the first results while the batch still
    // waits for a slow host would hide other batches' committed output from subscribers for as long
    // as that wait. So the transaction touches the output partitions only to produce and commit.
    deadLetters.forEach(Runnable::run);
    List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>();
    for (FetchResult result : results) {
      var ownTopic = topics.tenantContent(result.completed().getTenantId());
      for (ContentFetched item : result.content()) {
        byte[] value = contentSerializer.serialize(FreshetTopics.CONTENT_FETCHED, item);
        sends.add(template.send(FreshetTopics.CONTENT_FETCHED, item.getSourceId(), value));
        // an isolated tenant's copy, in the same transaction: both topics or neither
        ownTopic.ifPresent(t -> sends.add(template.send(t.name(), item.getSourceId(), value)));
      }
      var completed = result.completed();
      sends.add(
          template.send(
              FreshetTopics.FETCH_COMPLETED,
              completed.getSourceId(),
              completedSerializer.serialize(FreshetTopics.FETCH_COMPLETED, completed)));
    }
    // Every send acknowledged before the container commits the offsets with them.
    template.flush();
    CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get();
  }

  /** A request of the batch with its record and its partition's plan. */
  private record Decoded(
      ConsumerRecord<String, byte[]> record, FetchRequested request, CrashGuard.Plan plan) {}

  /** Fetches the requests at once, each on its own virtual thread, and waits for all of them. */
  private List<FetchResult> fetchAll(List<Decoded> requests, List<Runnable> deadLetters)
      throws InterruptedException, ExecutionException {
    List<Future<FetchResult>> running = new ArrayList<>(requests.size());
    for (Decoded d : requests) {
      running.add(fetches.submit(() -> fetch(d.request())));
    }
    List<FetchResult> results = new ArrayList<>(requests.size());
    for (int i = 0; i < running.size(); i++) {
      ConsumerRecord<String, byte[]> source = requests.get(i).record();
      try {
        results.add(running.get(i).get());
      } catch (ExecutionException e) {
        // A fetch never throws for a source's fault; what does throw (an unknown connector, or a
        // defect met by this request's data) would fail the same way on every retry, so the
        // request is dead-lettered with the reason instead of blocking its partition.
        if (e.getCause() instanceof UnusableRequestException unusable) {
          deadLetters.add(
              () ->
                  deadLetter(
                      source, new PoisonRecordException(describe(source, unusable), unusable)));
          continue;
        }
        if (e.getCause() instanceof RuntimeException defect) {
          deadLetters.add(
              () ->
                  deadLetter(
                      source,
                      new PoisonRecordException(
                          describe(source, defect) + " (" + defect.getClass().getSimpleName() + ")",
                          defect)));
          continue;
        }
        throw e;
      }
    }
    return results;
  }

  private FetchResult fetch(FetchRequested request) throws InterruptedException {
    metrics.started();
    try {
      FetchResult result = fetcher.fetch(request, false);
      metrics.finished(request, result.completed());
      if (log.isDebugEnabled()) {
        log.debug(
            "source {} request {}: {} ({} items, {} emitted)",
            request.getSourceId(),
            request.getRequestId(),
            result.completed().getStatus(),
            result.completed().getItems().size(),
            result.content().size());
      }
      return result;
    } catch (InterruptedException | RuntimeException e) {
      metrics.abandoned();
      throw e;
    }
  }

  private void deadLetter(ConsumerRecord<String, byte[]> record, PoisonRecordException e) {
    deadLetters.publish(record, e);
  }

  private static String describe(ConsumerRecord<?, ?> record, Exception e) {
    return io.freshet.schemas.serde.DeserializationFailures.describe(
        record.topic(), record.partition(), record.offset(), e.getMessage());
  }

  @Override
  public void destroy() {
    fetches.shutdownNow();
  }
}
