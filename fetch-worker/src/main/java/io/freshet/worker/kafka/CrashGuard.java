package io.freshet.worker.kafka;

import io.freshet.worker.config.WorkerProperties;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.stereotype.Component;

/**
 * Keeps a request that kills workers from killing them again. Before a partition's records are
 * fetched, a {@link CrashMarker} is committed as the metadata of the partition's (unchanged)
 * offset; the batch's transaction commits the next offset without it. A partition picked up with
 * another instance's marker still on its first record was in flight when that worker died: its
 * records are then fetched one at a time, each alone in this process (no other fetch runs), with a
 * marker naming it written first. A record that was alone in flight when a worker died {@code
 * maxCrashes} times is not fetched again: it is answered {@code failed} / {@code crashed_worker}
 * and dead-lettered. So a request that kills its worker costs at most one death among its batch and
 * {@code maxCrashes} alone, and the consumer group never crash-loops on it.
 *
 * <p>The first line of defence is the per-fetch work budget, which ends a hostile parse long before
 * it can exhaust the heap; this guard is for whatever slips through (a JVM run with {@code
 * -XX:+ExitOnOutOfMemoryError} exits on the first OutOfMemoryError, which is the point).
 */
@Component
final class CrashGuard implements ConsumerAwareRebalanceListener {

  private static final Logger log = LoggerFactory.getLogger(CrashGuard.class);

  /** How one partition's records in a batch are fetched. */
  record Plan(TopicPartition partition, long first, boolean isolated, Map<Long, Integer> crashes) {

    /** Times a worker died with this record alone in flight. */
    int crashesOf(long offset) {
      return crashes.getOrDefault(offset, 0);
    }
  }

  private final String instance = UUID.randomUUID().toString().substring(0, 13);
  private final int maxCrashes;
  private final Map<TopicPartition, CrashMarker> known = new ConcurrentHashMap<>();
  // Shared by the batches fetched together, exclusive for a record fetched alone: a process that
  // dies then can only have died of that record. Fair, so waiting isolated fetches are not starved.
  private final ReentrantReadWriteLock inFlight = new ReentrantReadWriteLock(true);

  @Autowired
  CrashGuard(WorkerProperties props) {
    this(props.worker().maxCrashes());
  }

  CrashGuard(int maxCrashes) {
    if (maxCrashes < 1) {
      throw new IllegalArgumentException("max crashes must be >= 1, was " + maxCrashes);
    }
    this.maxCrashes = maxCrashes;
  }

  @Override
  public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> committed =
        consumer.committed(new HashSet<>(partitions));
    for (TopicPartition tp : partitions) {
      OffsetAndMetadata offset = committed.get(tp);
      CrashMarker marker = offset == null ? null : CrashMarker.decode(offset.metadata());
      if (marker != null && marker.at() == offset.offset()) {
        known.put(tp, marker);
      } else {
        known.remove(tp);
      }
    }
  }

  @Override
  public void onPartitionsRevokedAfterCommit(
      Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
    partitions.forEach(known::remove);
  }

  @Override
  public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
    partitions.forEach(known::remove);
  }

  /** The plan for a partition whose records in this batch start at {@code first}. */
  Plan plan(TopicPartition partition, long first) {
    CrashMarker marker = known.get(partition);
    if (marker != null && marker.at() == first && !marker.instance().equals(instance)) {
      Map<Long, Integer> crashes = marker.crashesAfterDeath();
      log.warn(
          "{} from offset {} was in flight when worker {} died{}: fetching its records one at a"
              + " time",
          partition,
          first,
          marker.instance(),
          marker.current() >= 0 ? " (offset " + marker.current() + " alone)" : "");
      return new Plan(partition, first, true, crashes);
    }
    return new Plan(partition, first, false, Map.of());
  }

  boolean condemned(Plan plan, long offset) {
    return plan.crashesOf(offset) >= maxCrashes;
  }

  /**
   * Records, durably, that these partitions' records are about to be fetched: a crash from here on
   * makes them isolated when picked up again; crashes counted so far are carried, not counted
   * again.
   */
  void markBatch(Consumer<?, ?> consumer, Collection<Plan> plans) {
    Map<TopicPartition, OffsetAndMetadata> markers = new HashMap<>();
    for (Plan plan : plans) {
      CrashMarker marker = new CrashMarker(instance, plan.first(), -1, plan.crashes());
      markers.put(plan.partition(), new OffsetAndMetadata(plan.first(), marker.encode()));
      known.put(plan.partition(), marker);
    }
    if (!markers.isEmpty()) {
      consumer.commitSync(markers);
    }
  }

  /** Records, durably, that the record at {@code offset} is about to be fetched alone. */
  void markAlone(Consumer<?, ?> consumer, Plan plan, long offset) {
    CrashMarker marker = new CrashMarker(instance, plan.first(), offset, plan.crashes());
    consumer.commitSync(
        Map.of(plan.partition(), new OffsetAndMetadata(plan.first(), marker.encode())));
    known.put(plan.partition(), marker);
  }

  /** Runs fetches that share the process with other batches' fetches. */
  <T> T together(Callable<T> fetches) throws Exception {
    return locked(inFlight.readLock(), fetches);
  }

  /** Runs one fetch with nothing else in flight in this process. */
  <T> T alone(Callable<T> fetch) throws Exception {
    return locked(inFlight.writeLock(), fetch);
  }

  private static <T> T locked(Lock lock, Callable<T> work) throws Exception {
    lock.lockInterruptibly();
    try {
      return work.call();
    } finally {
      lock.unlock();
    }
  }
}
