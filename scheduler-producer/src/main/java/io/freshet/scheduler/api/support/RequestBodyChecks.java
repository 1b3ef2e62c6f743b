package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ApiException;
import io.freshet.kit.web.BodyLimit;
import io.freshet.kit.web.QueryParameterFilter;
import java.lang.reflect.Type;
import java.util.Optional;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import tools.jackson.databind.JsonNode;

/**
 * Around every JSON request body Spring binds: no body is read beyond {@code
 * freshet.api.max-body-size} (413; the scheduler's setting in place of the kit's {@code
 * freshet.web.max-body-bytes}), and no string in it may hold a NUL character (400 naming where),
 * which PostgreSQL cannot store.
 */
@ControllerAdvice
class RequestBodyChecks extends BodyLimit {

  private final Json json;

  RequestBodyChecks(Json json, ApiProperties props) {
    super(props.maxBodySize().toBytes(), BodyReader.describe(props.maxBodySize()));
    this.json = json;
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
          "body: "
              + (nul.get().isEmpty() ? "" : nul.get() + ": ")
              + QueryParameterFilter.NUL_MESSAGE);
    }
    return body;
  }
}
