package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ApiException;
import jakarta.validation.Validator;
import jakarta.validation.groups.Default;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Binds and checks request records the one way the API does: Spring's {@link Json} mapper binds,
 * bean validation checks, {@link BindingMessages} words every problem. Controllers receive records
 * bound by Spring and call {@link #check}; an update and each line of an import bind a JSON tree
 * with {@link #bind}.
 */
@Component
public final class RequestBinder {

  private final Json json;
  private final Validator validator;

  public RequestBinder(Json json, Validator validator) {
    this.json = json;
    this.validator = validator;
  }

  /** A bound request, or why it could not be bound or is invalid. */
  public record Bound<T>(T value, List<String> problems) {
    public Bound {
      problems = List.copyOf(problems);
    }

    public boolean ok() {
      return problems.isEmpty();
    }
  }

  /**
   * Binds {@code tree} to {@code type} and validates it with the {@code Default} group and {@code
   * groups}.
   */
  public <T> Bound<T> bind(JsonNode tree, Class<T> type, Class<?>... groups) {
    T value;
    try {
      value = json.mapper().treeToValue(tree, type);
    } catch (JacksonException e) {
      return new Bound<>(null, List.of(BindingMessages.of(e)));
    }
    return new Bound<>(value, problems(value, groups));
  }

  /** One message per problem of {@code request} (empty when valid). */
  public List<String> problems(Object request, Class<?>... groups) {
    Class<?>[] all =
        Stream.concat(Stream.of(Default.class), Stream.of(groups)).toArray(Class[]::new);
    return BindingMessages.of(validator.validate(request, all), request.getClass());
  }

  /**
   * @throws ApiException 400 with one message per problem
   */
  public void check(Object request, Class<?>... groups) {
    List<String> problems = problems(request, groups);
    if (!problems.isEmpty()) {
      throw ApiException.badRequest(problems);
    }
  }
}
