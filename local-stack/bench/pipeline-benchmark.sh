#!/usr/bin/env bash
# Runs PipelineBenchmark: the whole local pipeline (standalone broker, PostgreSQL, registry, the four
# services as processes, the demo web) end to end, beside a bare HTTP-client loop over the same demo
# web, with the per-stage lag of every fetch.
#   local-stack/bench/pipeline-benchmark.sh [sources] [rounds] [--hosts H] [--concurrency C]
#       [--bare-passes P] [--gap SECONDS] [--trigger sql|api] [--jvm "OPTIONS"] [--env module:KEY=VALUE ...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
# package: the services' exec jars, which the benchmark starts as processes; test classes included
./mvnw -q -B -ntp -pl local-stack -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/local-stack/target/bench.classpath" >/dev/null
cp="$root/local-stack/target/test-classes:$root/local-stack/target/classes:$(cat "$root/local-stack/target/bench.classpath")"
cd local-stack
exec "$("$root/bin/find-java")" -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn --enable-native-access=ALL-UNNAMED -cp "$cp" io.freshet.stack.bench.PipelineBenchmark "$@"
