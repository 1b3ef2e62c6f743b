#!/usr/bin/env bash
# Runs TopologyThroughputBenchmark against test-support's real Kafka broker and registry.
#   stats-aggregator/bench/throughput-benchmark.sh [outcomes] [--sources N] [--items N]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
./mvnw -q -B -ntp -pl stats-aggregator -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$root/stats-aggregator/target/bench.classpath" >/dev/null
cp="$root/stats-aggregator/target/test-classes:$root/stats-aggregator/target/classes:$(cat "$root/stats-aggregator/target/bench.classpath")"
cd stats-aggregator
exec "$("$root/bin/find-java")" -Xmx2g -Dfreshet.registry.home="$root/test-support/target/apicurio-registry" \
  -Dlogback.configurationFile="$root/stats-aggregator/bench/logback-bench.xml" \
  -cp "$cp" io.freshet.stats.bench.TopologyThroughputBenchmark "$@"
