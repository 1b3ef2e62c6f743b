#!/usr/bin/env bash
# Runs FetchBenchmark: fetches/s of one worker (Kafka in and out) beside a bare GET loop and a
# GET + parse loop over the same local feed server.
#   fetch-worker/bench/fetch-benchmark.sh [requests] [concurrency]
# BENCH_JAVA_OPTS adds JVM options, e.g. a flight recording:
#   BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=target/bench.jfr,settings=profile
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
./mvnw -q -B -ntp -pl fetch-worker -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/fetch-worker/target/bench.classpath" >/dev/null
cp="$root/fetch-worker/target/test-classes:$root/fetch-worker/target/classes:$(cat "$root/fetch-worker/target/bench.classpath")"
cd fetch-worker
# shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
exec "$("$root/bin/find-java")" -Xmx1g ${BENCH_JAVA_OPTS:-} -Dfreshet.registry.home="$root/test-support/target/apicurio-registry" \
  -cp "$cp" io.freshet.worker.bench.FetchBenchmark "$@"
