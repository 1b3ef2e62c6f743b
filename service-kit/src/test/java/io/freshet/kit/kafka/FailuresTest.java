package io.freshet.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.serde.PoisonRecordException;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;

class FailuresTest {

  @Test
  void anUnreachableRegistryIsAnOutageEvenWhenDecodingCallsItPoison() {
    var decoding =
        new PoisonRecordException(
            "topic t partition 0 offset 1: cannot decode",
            new SerializationException(
                "cannot read", new RuntimeException(new ConnectException())));
    assertThat(Failures.classify(decoding)).isEqualTo(Failures.Kind.OUTAGE);
  }

  @Test
  void aTruncatedOrForeignBodyIsPoison() {
    assertThat(Failures.classify(new SerializationException("cannot read", new EOFException())))
        .isEqualTo(Failures.Kind.POISON);
    assertThat(Failures.classify(new SerializationException("bad magic byte")))
        .isEqualTo(Failures.Kind.POISON);
    assertThat(Failures.classify(new IllegalArgumentException("source_id is blank")))
        .isEqualTo(Failures.Kind.POISON);
  }

  @Test
  void theDatabaseOrBrokerDownIsAnOutage() {
    assertThat(Failures.isOutage(new DataAccessResourceFailureException("no connection"))).isTrue();
    assertThat(Failures.isOutage(new SQLTransientConnectionException("pool timeout"))).isTrue();
    assertThat(Failures.isOutage(new TimeoutException("metadata not available"))).isTrue();
    assertThat(Failures.isOutage(new RuntimeException(new SocketTimeoutException()))).isTrue();
    // PostgreSQL's driver reports a lost connection or a shutdown by SQLState, not by type
    assertThat(Failures.isOutage(new SQLException("connection refused", "08001"))).isTrue();
    assertThat(Failures.isOutage(new SQLException("terminating connection", "57P01"))).isTrue();
    assertThat(Failures.isOutage(new SQLException("could not serialize", "40001"))).isTrue();
    // HikariCP's answer on a connection whose backend was terminated: no state
    assertThat(Failures.isOutage(new RuntimeException(new SQLException("Connection is closed"))))
        .isTrue();
  }

  @Test
  void aRecordTheDatabaseRefusesIsPoison() {
    assertThat(Failures.isOutage(new SQLException("value too long", "22001"))).isFalse();
    assertThat(Failures.isOutage(new DataIntegrityViolationException("check constraint")))
        .isFalse();
  }

  @Test
  void theReasonIsBoundedAndSaysWhereAndWhy() {
    var failure =
        new PoisonRecordException(
            "topic t partition 2 offset 9: bad", new IllegalStateException("x".repeat(5_000)));
    String reason = Failures.reason(failure);
    assertThat(reason).startsWith("topic t partition 2 offset 9: bad (IllegalStateException: xxx");
    assertThat(reason).hasSizeLessThanOrEqualTo(Failures.MAX_REASON);
  }

  @Test
  void theFirstFrameNamesFreshetsCodeWhenTheRootCauseIsInALibrary() {
    Exception failure;
    try {
      Integer.parseInt("not a number");
      throw new AssertionError();
    } catch (NumberFormatException e) {
      failure = new RuntimeException("mapping failed", e);
    }
    String frame = Failures.firstFrame(failure);
    assertThat(frame).startsWith("java.base/java.lang.NumberFormatException.forInputString");
    assertThat(frame).contains("(from io.freshet.kit.kafka.FailuresTest.");
  }

  @Test
  void aDeadLetterSaysWhereFromWhoRejectedItAndWhyAndDropsEarlierLetterHeaders() {
    var original = new RecordHeaders();
    original.add("trace", new byte[] {1});
    original.add(DeadLetter.REASON, "an earlier failure".getBytes());
    original.add(DeadLetter.REDRIVE_GROUP, "g1".getBytes());
    var letter =
        new DeadLetter(
            "freshet.fetch.completed.v1",
            3,
            42L,
            1_000L,
            "freshet-scheduler",
            new PoisonRecordException("no such source", null));

    var headers = letter.headers(original);

    assertThat(letter.dlqTopic()).isEqualTo("freshet.fetch.completed.v1.dlq.freshet-scheduler");
    assertThat(headers.lastHeader("trace").value()).containsExactly(1);
    assertThat(headers.headers(DeadLetter.REASON)).hasSize(1);
    assertThat(DeadLetter.text(headers, DeadLetter.REASON))
        .isEqualTo("PoisonRecordException: no such source");
    assertThat(headers.lastHeader(DeadLetter.REDRIVE_GROUP)).isNull();
    assertThat(DeadLetter.text(headers, DeadLetter.GROUP)).isEqualTo("freshet-scheduler");
    assertThat(DeadLetter.text(headers, DeadLetter.ORIGINAL_TOPIC))
        .isEqualTo("freshet.fetch.completed.v1");
    assertThat(DeadLetter.number(headers, DeadLetter.ORIGINAL_PARTITION)).isEqualTo(3);
    assertThat(DeadLetter.number(headers, DeadLetter.ORIGINAL_OFFSET)).isEqualTo(42);
    assertThat(ByteBuffer.wrap(headers.lastHeader(DeadLetter.ORIGINAL_OFFSET).value()).getLong())
        .isEqualTo(42);
    assertThat(DeadLetter.text(headers, DeadLetter.FIRST_FRAME))
        .contains("FailuresTest.aDeadLetterSays");
  }
}
