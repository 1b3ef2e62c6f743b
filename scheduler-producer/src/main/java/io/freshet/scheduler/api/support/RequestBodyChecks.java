package io.freshet.scheduler.api.support;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.util.Optional;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.util.unit.DataSize;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;
import tools.jackson.databind.JsonNode;

/**
 * Around every JSON request body Spring binds: no body is read beyond {@code
 * freshet.api.max-body-size} (413), and no string in it may hold a NUL character (400 naming
 * where), which PostgreSQL cannot store.
 */
@ControllerAdvice
class RequestBodyChecks extends RequestBodyAdviceAdapter {

  private final Json json;
  private final DataSize max;

  RequestBodyChecks(Json json, ApiProperties props) {
    this.json = json;
    this.max = props.maxBodySize();
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
    InputStream limited = new Limited(input.getBody(), max);
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

  @Override
  public Object afterBodyRead(
      Object body,
      HttpInputMessage input,
      MethodParameter parameter,
      Type targetType,
      Class<? extends HttpMessageConverter<?>> converterType) {
    JsonNode tree = body instanceof JsonNode node ? node : json.mapper().valueToTree(body);
    Optional<String> nul = Json.nulPath(tree);
    if (nul.isPresent()) {
      throw ApiException.badRequest(
          "body: " + (nul.get().isEmpty() ? "" : nul.get() + ": ") + NulCharacterFilter.MESSAGE);
    }
    return body;
  }

  /** Thrown by the body's stream past the limit; the error handler answers 413. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(DataSize max) {
      super("body: larger than the limit of " + BodyReader.describe(max));
    }
  }

  private static final class Limited extends FilterInputStream {
    private final DataSize max;
    private long left;

    Limited(InputStream in, DataSize max) {
      super(in);
      this.max = max;
      this.left = max.toBytes();
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
        throw new TooLarge(max);
      }
    }
  }
}
