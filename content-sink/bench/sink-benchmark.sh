#!/usr/bin/env bash
# Runs the sink benchmark (SinkBenchmark) against real PostgreSQL, Kafka and registry:
# sink path vs raw COPY, then unnest vs multi-row VALUES vs COPY-and-merge for the upsert.
#   content-sink/bench/sink-benchmark.sh [--rows N] [--body B] [--sources S] [--statement-rows M]
#     [--batch K] [--max-poll P] [--concurrency C] [--skip-sink] [--skip-statements]
# Compiles in the reactor (nothing is installed into ~/.m2): the classpath points at the sibling
# modules' target/classes.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
./mvnw -q -B -pl content-sink -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$root/content-sink/target/bench.classpath" >/dev/null
cp="$root/content-sink/target/test-classes:$root/content-sink/target/classes:$(cat "$root/content-sink/target/bench.classpath")"
cd content-sink
exec "$("$root/bin/find-java")" -Xmx3g -Dfreshet.registry.home="$root/test-support/target/apicurio-registry" \
  -cp "$cp" io.freshet.sink.ingest.SinkBenchmark "$@"
