package io.freshet.stats.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.net.ConnectException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class InfrastructureFailuresTest {

  @Test
  void anUnreachableRegistryIsAnOutageButATruncatedBodyIsPoison() {
    assertThat(
            InfrastructureFailures.isInfrastructure(
                new SerializationException(
                    "cannot read", new RuntimeException(new ConnectException("refused")))))
        .isTrue();
    assertThat(
            InfrastructureFailures.isInfrastructure(
                new SerializationException("cannot read", new EOFException())))
        .isFalse();
    assertThat(InfrastructureFailures.isInfrastructure(new SerializationException("bad magic")))
        .isFalse();
  }
}
