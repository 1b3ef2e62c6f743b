package io.freshet.kit.web;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * No request body Spring binds is read beyond {@code freshet.web.max-body-bytes}: past it, the
 * stream fails with {@link TooLarge} and {@link ProblemExceptionHandler} answers 413. Counting the
 * bytes read (not trusting Content-Length) covers chunked bodies too.
 */
@ControllerAdvice
public class BodyLimit extends RequestBodyAdviceAdapter {

  private final long max;
  private final String limit;

  public BodyLimit(long maxBytes) {
    this(maxBytes, describe(maxBytes));
  }

  /**
   * @param limit the limit as the 413's message shows it ("1 MB")
   */
  public BodyLimit(long maxBytes, String limit) {
    this.max = maxBytes;
    this.limit = limit;
  }

  @Override
  public boolean supports(
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    return true;
  }

  @Override
  public HttpInputMessage beforeBodyRead(
      HttpInputMessage input,
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType)
      throws IOException {
    InputStream limited = limit(input.getBody(), max, limit);
    HttpHeaders headers = input.getHeaders();
    return new HttpInputMessage() {
      @Override
      public InputStream getBody() {
        return limited;
      }

      @Override
      public HttpHeaders getHeaders() {
        return headers;
      }
    };
  }

  /** {@code in}, failing with {@link TooLarge} once more than {@code maxBytes} have been read. */
  public static InputStream limit(InputStream in, long maxBytes, String limit) {
    return new Limited(in, maxBytes, limit);
  }

  /** "1 MiB", "512 KiB", "300 bytes". */
  public static String describe(long bytes) {
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + " MiB";
    }
    if (bytes >= 1024 && bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " bytes";
  }

  /** Thrown by the body's stream past the limit; the error handler answers 413. */
  public static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    public TooLarge(String limit) {
      super("body: larger than the limit of " + limit);
    }
  }

  private static final class Limited extends FilterInputStream {
    private final String limit;
    private long left;

    Limited(InputStream in, long max, String limit) {
      super(in);
      this.limit = limit;
      this.left = max;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    private void count(int n) throws TooLarge {
      left -= n;
      if (left < 0) {
        throw new TooLarge(limit);
      }
    }
  }
}
