package io.freshet.scheduler.outcomes;

import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.serde.PoisonRecordException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One poll of a batch listener, decoded, with the service kit's poison-or-outage rule applied per
 * record: a record that cannot be decoded, or whose verdict is poison, goes to the group's
 * dead-letter topic alone after the rest of the poll is stored; an outage (the registry or the
 * database unavailable) fails the whole poll, which the container retries with nothing committed.
 *
 * @param <V> the decoded value
 */
final class Poll<V> {

  private final List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
  private final List<V> values = new ArrayList<>();
  private final List<Rejected> rejected = new ArrayList<>();

  private record Rejected(ConsumerRecord<String, byte[]> record, RuntimeException why) {}

  private Poll() {}

  /** Decodes a poll; tombstones are skipped, undecodable records are set aside as poison. */
  static <V> Poll<V> decode(
      List<ConsumerRecord<String, byte[]>> records,
      Function<ConsumerRecord<String, byte[]>, V> decoder) {
    Poll<V> poll = new Poll<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        V value = decoder.apply(record);
        if (value != null) {
          poll.records.add(record);
          poll.values.add(value);
        }
      } catch (PoisonRecordException e) {
        if (Failures.isOutage(e)) {
          throw e; // the registry is unreachable: the poll is retried, the record is not poison
        }
        poll.reject(record, e);
      }
    }
    return poll;
  }

  /** The decoded values, in the poll's order. */
  List<V> values() {
    return values;
  }

  /**
   * Applies the decoded values with {@code applyAll}, one transaction for the poll. If that fails
   * and the failure is not an outage, a statement refused one record without saying which: the
   * values are applied again one at a time, so that the record goes to the dead-letter topic alone
   * and the others are stored (applying a stored one again changes nothing). Poison verdicts are
   * set aside for {@link #deadLetter}.
   *
   * @return the verdict of each value, in the order of {@link #values()}
   */
  <R> List<Verdict<R>> apply(Function<List<V>, List<Verdict<R>>> applyAll) {
    List<Verdict<R>> verdicts;
    if (values.isEmpty()) {
      return List.of();
    }
    try {
      verdicts = applyAll.apply(values);
    } catch (RuntimeException e) {
      if (Failures.isOutage(e)) {
        throw e;
      }
      verdicts = new ArrayList<>(values.size());
      for (V value : values) {
        verdicts.add(one(applyAll, value, values.size() == 1 ? e : null));
      }
    }
    for (int i = 0; i < verdicts.size(); i++) {
      if (verdicts.get(i).poison() != null) {
        reject(records.get(i), verdicts.get(i).poison());
      }
    }
    return verdicts;
  }

  private static <V, R> Verdict<R> one(
      Function<List<V>, List<Verdict<R>>> applyAll, V value, RuntimeException known) {
    if (known != null) {
      return Verdict.poison(known);
    }
    try {
      return applyAll.apply(List.of(value)).getFirst();
    } catch (RuntimeException e) {
      if (Failures.isOutage(e)) {
        throw e;
      }
      return Verdict.poison(e);
    }
  }

  /**
   * Sends the poison records to the group's dead-letter topic ({@code
   * DeadLetterPublisher::publish}), in the poll's order; call it after the rest is stored. If the
   * broker does not acknowledge, the poll fails and is retried, and applying its stored records
   * again changes nothing.
   */
  void deadLetter(BiConsumer<ConsumerRecord<String, byte[]>, Throwable> deadLetters) {
    rejected.sort(
        java.util.Comparator.<Rejected>comparingInt(r -> r.record().partition())
            .thenComparingLong(r -> r.record().offset()));
    for (Rejected r : rejected) {
      deadLetters.accept(r.record(), r.why());
    }
  }

  private void reject(ConsumerRecord<String, byte[]> record, RuntimeException why) {
    rejected.add(new Rejected(record, why));
  }
}
