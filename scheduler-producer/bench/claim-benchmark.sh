#!/usr/bin/env bash
# Runs the claim benchmark (ClaimBenchmark) against real PostgreSQL, Kafka and registry.
#   scheduler-producer/bench/claim-benchmark.sh [sizes...] [--batch N] [--rounds R] [--due-count N]
#   scheduler-producer/bench/claim-benchmark.sh --backlog [size] [--max-in-flight N] [--max-seconds S]
# Builds with `package` in one reactor (never `install`: ~/.m2 is left alone), so the classpath
# names the sibling modules' target/ jars; the test classes are compiled, the tests not run.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
./mvnw -q -B -o -pl scheduler-producer -am package -DskipTests \
  dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/scheduler-producer/target/bench.classpath" >/dev/null
cp="$root/scheduler-producer/target/test-classes:$root/scheduler-producer/target/classes:$(cat "$root/scheduler-producer/target/bench.classpath")"
cd scheduler-producer
exec "$("$root/bin/find-java")" -Xmx2g -Dfreshet.registry.home="$root/test-support/target/apicurio-registry" \
  -cp "$cp" io.freshet.scheduler.bench.ClaimBenchmark "$@"
