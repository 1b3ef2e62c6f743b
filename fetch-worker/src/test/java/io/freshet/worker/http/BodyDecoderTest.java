package io.freshet.worker.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Reading a body under its cap, with and without a declared length that may be wrong. */
class BodyDecoderTest {

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  /** A stream that hands out at most a few bytes per read, as a socket does. */
  private static InputStream trickling(byte[] body) {
    var bytes = new ByteArrayInputStream(body);
    return new InputStream() {
      @Override
      public int read() {
        return bytes.read();
      }

      @Override
      public int read(byte[] b, int off, int len) {
        return bytes.read(b, off, Math.min(len, 7));
      }
    };
  }

  @Test
  void anEmptyBodyIsEmptyWhateverItsDeclaredLength() throws Exception {
    for (long declared : new long[] {-1, 0, 10}) {
      assertThat(BodyDecoder.readCapped(InputStream.nullInputStream(), 100, "body", declared))
          .isEmpty();
    }
  }

  @Test
  void aBodyIsReadWholeWhetherItsLengthIsDeclaredRightWrongOrNotAtAll() throws Exception {
    for (int size : new int[] {1, 2, 100, 16 * 1024, 16 * 1024 + 1, 100_000}) {
      byte[] body = bytes(size);
      for (long declared : new long[] {-1, size, size / 2, size + 5, 2L * size}) {
        assertThat(BodyDecoder.readCapped(trickling(body), 1_000_000, "body", declared))
            .as("size %d declared %d", size, declared)
            .isEqualTo(body);
      }
      assertThat(BodyDecoder.readCapped(trickling(body), 1_000_000, "body")).isEqualTo(body);
    }
  }

  @Test
  void aBodyOverTheCapIsRefusedAndOneAtTheCapIsNot() throws Exception {
    byte[] body = bytes(1_000);
    for (long declared : new long[] {-1, 1_000, 500, 2_000}) {
      assertThat(BodyDecoder.readCapped(trickling(body), 1_000, "body", declared)).isEqualTo(body);
      assertThatThrownBy(() -> BodyDecoder.readCapped(trickling(body), 999, "body", declared))
          .isInstanceOfSatisfying(
              FetchFailure.class, f -> assertThat(f.kind()).isEqualTo(ErrorKind.TOO_LARGE));
    }
    assertThatThrownBy(() -> BodyDecoder.readCapped(trickling(bytes(1)), 0, "body", -1))
        .isInstanceOf(FetchFailure.class);
  }
}
