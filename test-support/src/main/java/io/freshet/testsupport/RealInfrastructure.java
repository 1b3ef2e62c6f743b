package io.freshet.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Opts a test class into Freshet's real infrastructure: a Kafka KRaft broker, a PostgreSQL 17
 * server and an Apicurio schema registry, each started once per test JVM on random ports and
 * stopped at JVM exit.
 *
 * <p>Before the class runs, the extension publishes the endpoints as system properties (see {@link
 * Infrastructure#publishSystemProperties()}) so a Spring context started afterwards picks them up,
 * and resolves {@link KafkaFixture}, {@link PostgresFixture} and {@link RegistryFixture}
 * parameters.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(InfrastructureExtension.class)
public @interface RealInfrastructure {

  /** The parts the class needs; all three unless narrowed. Unneeded parts are not started. */
  Component[] value() default {Component.KAFKA, Component.POSTGRES, Component.REGISTRY};

  /** A part of the infrastructure. */
  enum Component {
    KAFKA,
    POSTGRES,
    REGISTRY
  }
}
