package io.freshet.scheduler.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.serde.PoisonRecordException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;

/** The poison-or-outage rule of a batch listener's poll, without a broker or a database. */
class PollTest {

  private final List<List<String>> calls = new ArrayList<>();
  private final List<String> stored = new ArrayList<>();
  private final List<String> letters = new ArrayList<>();

  /** Stores a batch in one "transaction"; a value "refused" fails the whole statement. */
  private final Function<List<String>, List<Verdict<String>>> store =
      values -> {
        calls.add(List.copyOf(values));
        if (values.contains("refused")) {
          throw new DataIntegrityViolationException("refused", new SQLException("no", "23514"));
        }
        if (values.contains("down")) {
          throw new IllegalStateException(new SQLTransientConnectionException("pool"));
        }
        stored.addAll(values);
        return values.stream()
            .map(
                v ->
                    v.startsWith("poison")
                        ? Verdict.<String>poison(new PoisonRecordException(v, null))
                        : Verdict.of(v))
            .toList();
      };

  @Test
  void undecodableRecordsAndPoisonVerdictsGoToTheDlqAloneInOffsetOrderAfterTheRestIsStored() {
    Poll<String> poll = poll("a", "!undecodable", "poison-b", "c", null);

    List<Verdict<String>> verdicts = poll.apply(store);
    assertThat(letters).isEmpty();
    poll.deadLetter((record, why) -> letters.add(record.offset() + " " + why.getMessage()));

    assertThat(calls).containsExactly(List.of("a", "poison-b", "c"));
    assertThat(verdicts).extracting(Verdict::result).containsExactly("a", null, "c");
    assertThat(letters).containsExactly("1 undecodable", "2 poison-b");
  }

  @Test
  void aPollRefusedAsAWholeIsAppliedOneAtATimeAndOnlyTheRefusedRecordIsPoison() {
    Poll<String> poll = poll("a", "refused", "b");

    List<Verdict<String>> verdicts = poll.apply(store);
    poll.deadLetter((record, why) -> letters.add(String.valueOf(record.offset())));

    assertThat(calls)
        .containsExactly(
            List.of("a", "refused", "b"), List.of("a"), List.of("refused"), List.of("b"));
    assertThat(stored).containsExactly("a", "b");
    assertThat(verdicts).extracting(Verdict::result).containsExactly("a", null, "b");
    assertThat(letters).containsExactly("1");
  }

  @Test
  void anOutageFailsThePollWholeWithNothingDeadLettered() {
    Poll<String> poll = poll("a", "down", "b");

    assertThatThrownBy(() -> poll.apply(store))
        .hasRootCauseInstanceOf(SQLTransientConnectionException.class);
    poll.deadLetter((record, why) -> letters.add(String.valueOf(record.offset())));

    assertThat(calls).containsExactly(List.of("a", "down", "b"));
    assertThat(letters).isEmpty();
  }

  @Test
  void anOutageWhileDecodingFailsThePollInsteadOfDeadLetteringTheRecord() {
    assertThatThrownBy(() -> poll("a", "!registry down")).isInstanceOf(PoisonRecordException.class);
  }

  /**
   * A poll of these values at offsets 0, 1, …: "!x" cannot be decoded ("!registry down" because the
   * registry is unreachable), null is a tombstone.
   */
  private static Poll<String> poll(String... values) {
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      records.add(
          new ConsumerRecord<>(
              "topic", 0, i, "k", values[i] == null ? null : values[i].getBytes()));
    }
    return Poll.decode(
        records,
        r -> {
          if (r.value() == null) {
            return null;
          }
          String v = new String(r.value());
          if (v.equals("!registry down")) {
            throw new PoisonRecordException(
                "cannot decode", new java.net.ConnectException("registry"));
          }
          if (v.startsWith("!")) {
            throw new PoisonRecordException(v.substring(1), null);
          }
          return v;
        });
  }
}
