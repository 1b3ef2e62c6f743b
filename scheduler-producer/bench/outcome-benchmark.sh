#!/usr/bin/env bash
# Runs the inbound benchmark (OutcomeBenchmark): FetchCompleted outcomes and SourceStats applied
# through the scheduler's own path against the real PostgreSQL of test-support; prints records/s
# and CPU per record (benchmark JVM and PostgreSQL backend).
#   scheduler-producer/bench/outcome-benchmark.sh [--sources N] [--batch B] [--rounds R]
# Builds with the reactor (no install): set BENCH_SKIP_BUILD=1 to run what is already compiled.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if [[ "${BENCH_SKIP_BUILD:-}" != 1 ]]; then
  ./mvnw -q -B -ntp -o -pl scheduler-producer -am test-compile dependency:build-classpath \
    -Dspotless.check.skip=true -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath >/dev/null
fi
# The reactor resolves Freshet's own modules to their target/classes: nothing is installed.
cp="$root/scheduler-producer/target/test-classes:$root/scheduler-producer/target/classes"
cp="$cp:$(cat scheduler-producer/target/bench.classpath)"
cd scheduler-producer
exec "$("$root/bin/find-java")" -Xmx1g -cp "$cp" io.freshet.scheduler.outcomes.OutcomeBenchmark "$@"
