package io.freshet.push.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** A notification body is read up to the cap and one byte more, whatever the hub declared. */
class CallbackBodyTest {

  @Test
  void aBodyUpToTheCapIsReadWhole() throws IOException {
    assertThat(CallbackController.readAtMost(new ByteArrayInputStream(new byte[100]), 100))
        .hasSize(100);
    assertThat(CallbackController.readAtMost(new ByteArrayInputStream(new byte[0]), 100)).isEmpty();
  }

  @Test
  void aLongerBodyIsRefusedAfterReadingOneByteMoreThanTheCap() throws IOException {
    var endless =
        new InputStream() {
          long read;

          @Override
          public int read() {
            read++;
            return 'x';
          }
        };
    assertThat(CallbackController.readAtMost(endless, 1000)).isNull();
    assertThat(endless.read).isEqualTo(1001);
  }
}
