#!/usr/bin/env bash
# Runs CalendarBenchmark: CPU µs and bytes allocated per document of the iCalendar connector's
# parse, with the model of what it reads beside ical4j's full model, alternated, for the demo web's
# calendar and an export-shaped one. Single-threaded and short; on a shared machine compare only the
# two builds' figures of one run.
#   fetch-worker/bench/calendar-benchmark.sh [rounds] [documents per round]
# BENCH_JAVA_OPTS adds JVM options, e.g. a flight recording:
#   BENCH_JAVA_OPTS=-XX:StartFlightRecording=filename=target/calendar.jfr,settings=profile
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
./mvnw -q -B -ntp -o -pl fetch-worker -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/fetch-worker/target/bench.classpath" >/dev/null
cp="$root/fetch-worker/target/test-classes:$root/fetch-worker/target/classes:$(cat "$root/fetch-worker/target/bench.classpath")"
cd fetch-worker
# shellcheck disable=SC2086 # BENCH_JAVA_OPTS is a list of options
exec "$("$root/bin/find-java")" -Xmx512m ${BENCH_JAVA_OPTS:-} \
  -cp "$cp" io.freshet.worker.bench.CalendarBenchmark "$@"
