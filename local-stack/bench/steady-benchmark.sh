#!/usr/bin/env bash
# Runs SteadyBenchmark: the whole local pipeline (standalone broker, PostgreSQL, registry, the five
# services as processes with the launcher's JVM options, the demo web) at a sustained offered load —
# every source due again --every seconds after its last outcome, fetched by the scheduler's own
# claim loop — alternating, in one run, with a bare GET + parse loop (the worker's feed parser) over
# a twin of the same demo web, each for windows of minutes after a warm-up. Per regime (its own
# stack): fetches/s of each side and their ratio, CPU ms per fetch per process (OS), per-stage lag,
# GC time, resident memory, the JVM options, and the reconciliation with the demo web's ground truth.
# Every port is a free random one (never ./freshet up's defaults).
#   local-stack/bench/steady-benchmark.sh [--regime unchanged|new|both] [--minutes M] [--alternate K]
#       [--warmup SECONDS] [--settle SECONDS] [--every SECONDS] [--sources N] [--hosts H]
#       [--concurrency C] [--bare-clients N] [--unchanged-scale X] [--publish-every SECONDS]
#       [--env [module:]KEY=VALUE]... [--variant module:KEY=VALUE]... [--no-bare] [--pg-statements]
# --env: a variable over the launcher's for every service, or for one module (repeatable), e.g.
# --env fetch-worker:SPRING_KAFKA_PRODUCER_PROPERTIES_LINGER_MS=20. --no-bare: pipeline windows
# only, back to back (for comparing settings by CPU per fetch). --variant (implies --no-bare):
# pipeline windows alternate A (without) and B (with these settings), --alternate pairs, each
# variant module restarted before each window and the pipeline settled --settle s; the summary
# gives each side's fetches/s and CPU ms per fetch per process. --pg-statements: PostgreSQL loads
# pg_stat_statements and each pipeline window prints its statements by execution time; every
# window prints PostgreSQL's CPU by process (each service's connections, autovacuum, WAL writer…).
# Defaults: both regimes, 2 alternations of 3-minute windows, 90 s warm-up of each side, 20 s settle
# after each resume, every 1 s, sources on as many hosts: unchanged 8,000 (beyond the traces' 1,496
# the catalog repeats them as copies, each a source of its own, up to 100,000: 1,496 due every
# second offer only ~1,000 fetches/s, which leaves a 2-core machine half idle), new 2,000 (1,496
# no longer kept 2 cores busy once the stack cost ~2.2 ms per fetch); bare loop 400 at once (the worker's
# 4 consumers x 100 records), in a JVM of its own with the worker's JVM options, on --bare-clients 4 JDK
# HTTP clients (one client's selector thread held it to 1.5 of 2 cores; the summary also gives the ratio
# of CPU per fetch, which does not depend on either side saturating); per-stage lags from a quarter of
# each topic's partitions (the same quarter of the sources on all three); regime unchanged: the bundled traces at wall speed (--unchanged-scale 1:
# nearly every fetch a 304); regime new: every source publishes an item every --publish-every 1 s
# (a synthetic catalog of the same mix of kinds), and the bare loop GETs unconditionally.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
# package: the services' exec jars, which the benchmark starts as processes; test classes included.
# Each module's classpath goes to its own target/bench.classpath: the bare loop needs fetch-worker's.
# SKIP_BUILD=1 reuses what an earlier run built (nothing but the benchmark changed since).
[ "${SKIP_BUILD:-}" = 1 ] || ./mvnw -q -B -ntp -o -pl local-stack -am package -DskipTests dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath >/dev/null
cp="$root/local-stack/target/test-classes:$root/local-stack/target/classes:$(cat "$root/local-stack/target/bench.classpath")"
cp="$cp:$root/fetch-worker/target/classes:$(cat "$root/fetch-worker/target/bench.classpath")"
cd local-stack
exec "$("$root/bin/find-java")" -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn --enable-native-access=ALL-UNNAMED -cp "$cp" io.freshet.stack.bench.SteadyBenchmark "$@"
