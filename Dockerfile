# Every Freshet service's image, one Dockerfile for all (the build argument MODULE names the
# service): scheduler-producer, fetch-worker, content-sink or stats-aggregator.
#
# The image wraps the module's executable jar; build the jars first, then the image from the
# repository's root (docker-compose.yml does the second step for each service):
#   ./mvnw -B -ntp package -DskipTests
#   docker build --build-arg MODULE=fetch-worker -t freshet/fetch-worker .
# Settings come from the environment (see the module's application.yml and README); the container
# listens on PORT 8080 and runs as an unprivileged user. `.dockerignore` sends only the services'
# exec jars to the build.
FROM eclipse-temurin:21.0.12_8-jre-noble

ARG MODULE
# Share of the container's memory for the heap: stats-aggregator passes 50, leaving half to
# RocksDB (off-heap).
ARG MAX_RAM_PERCENTAGE=75

RUN test -n "$MODULE" || { echo "build with --build-arg MODULE=<service module>" >&2; exit 1; } \
 && groupadd --system --gid 10001 freshet \
 && useradd --system --uid 10001 --gid freshet --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin freshet \
 && mkdir -p /var/lib/freshet/stats \
 && chown -R freshet:freshet /var/lib/freshet

WORKDIR /app
COPY ${MODULE}/target/${MODULE}-*-exec.jar /app/app.jar

ENV PORT=8080
# JVM defaults: the heap follows the container's memory limit. JAVA_TOOL_OPTIONS set in
# docker-compose.yml replaces them: repeat what you keep.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=${MAX_RAM_PERCENTAGE} -XX:+ExitOnOutOfMemoryError"
EXPOSE 8080
USER freshet

# Readiness, not liveness: compose starts dependants only once this service serves.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD curl -fsS -o /dev/null http://127.0.0.1:8080/actuator/health/readiness || exit 1

ENTRYPOINT ["java", "-jar", "/app/app.jar"]
