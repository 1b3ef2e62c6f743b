package io.freshet.scheduler.api;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.scheduler.api.support.Json;
import io.freshet.scheduler.api.support.RequestBinder;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorFactory;
import jakarta.validation.Validation;
import java.lang.reflect.Constructor;
import java.time.Clock;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API's JSON and request binding for unit tests, built as Spring builds them (the strict
 * mapper, bean validation whose validators get the cadence engine) but without a context.
 */
public final class ApiTesting {

  private static final Json JSON = new Json(Json.strict(JsonMapper.builder()).build());
  private static final CadenceEngine ENGINE =
      new CadenceEngine(CadenceDefaults.standard(), Clock.systemUTC());

  private ApiTesting() {}

  public static Json json() {
    return JSON;
  }

  public static RequestBinder binder() {
    var validator =
        Validation.byDefaultProvider()
            .configure()
            .constraintValidatorFactory(new EngineInjecting())
            .buildValidatorFactory()
            .getValidator();
    return new RequestBinder(JSON, validator);
  }

  /** Creates validators like Spring does, passing the cadence engine to those that take it. */
  private static final class EngineInjecting implements ConstraintValidatorFactory {
    @Override
    public <T extends ConstraintValidator<?, ?>> T getInstance(Class<T> key) {
      try {
        for (Constructor<?> c : key.getDeclaredConstructors()) {
          c.setAccessible(true);
          if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == CadenceEngine.class) {
            return key.cast(c.newInstance(ENGINE));
          }
          if (c.getParameterCount() == 0) {
            return key.cast(c.newInstance());
          }
        }
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      throw new IllegalStateException("cannot create " + key);
    }

    @Override
    public void releaseInstance(ConstraintValidator<?, ?> instance) {}
  }
}
