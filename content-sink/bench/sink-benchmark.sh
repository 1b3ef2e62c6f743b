#!/usr/bin/env bash
# Runs the sink benchmark (SinkBenchmark) against real PostgreSQL, Kafka and registry:
# sink path vs raw COPY, then unnest vs multi-row VALUES vs COPY-and-merge for the upsert.
#   content-sink/bench/sink-benchmark.sh [--rows N] [--body B] [--statement-rows M] [--batch K]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
./mvnw -q -B -pl content-sink -am install -DskipTests
./mvnw -q -B -pl content-sink dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/content-sink/target/bench.classpath" >/dev/null
cp="$root/content-sink/target/test-classes:$root/content-sink/target/classes:$(cat "$root/content-sink/target/bench.classpath")"
cd content-sink
exec "$("$root/bin/find-java")" -Xmx3g -Dfreshet.registry.home="$root/test-support/target/apicurio-registry" \
  -cp "$cp" io.freshet.sink.ingest.SinkBenchmark "$@"
