package io.freshet.testsupport;

import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Starts the parts a {@link RealInfrastructure} class asks for and injects their fixtures. */
final class InfrastructureExtension implements BeforeAllCallback, ParameterResolver {

  private static final List<Class<?>> FIXTURES =
      List.of(KafkaFixture.class, PostgresFixture.class, RegistryFixture.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    var wanted = EnumSet.noneOf(RealInfrastructure.Component.class);
    AnnotationSupport.findAnnotation(context.getRequiredTestClass(), RealInfrastructure.class)
        .ifPresent(a -> wanted.addAll(List.of(a.value())));
    Infrastructure.start(wanted);
    Infrastructure.publishSystemProperties();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return FIXTURES.contains(parameter.getParameter().getType());
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == KafkaFixture.class) {
      return Infrastructure.kafka();
    }
    if (type == PostgresFixture.class) {
      return Infrastructure.postgres();
    }
    if (type == RegistryFixture.class) {
      return Infrastructure.registry();
    }
    throw new ParameterResolutionException("not a fixture: " + type);
  }
}
