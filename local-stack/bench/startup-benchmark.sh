#!/usr/bin/env bash
# Start-up of the local stack with class-data sharing on against off (FRESHET_CDS), alternated in
# one run: each round is `./freshet up --no-progress` until "all services healthy", then
# `./freshet down`, on one FRESHET_HOME (so every round after the first resumes the same data).
# Prints per round the load, the launcher's "infrastructure ready" and "all services healthy" times,
# the services' share (their difference: the five started one after another, each to readiness),
# and each service's own "Started … in" from its log; then the medians per mode.
#   local-stack/bench/startup-benchmark.sh [PAIRS]   (default 2; an unmeasured recording round first)
# The first round runs with sharing on and records the archives (a clean stop writes them), so
# the measured "on" rounds map them; it is printed but left out of the medians. Ports are moved
# to 28xxx and FRESHET_HOME to a temporary directory, so a running ./freshet up is not disturbed.
# On a shared machine run it as `flock /work/bench.lock local-stack/bench/startup-benchmark.sh`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
pairs="${1:-2}"
export FRESHET_HOME="${FRESHET_HOME:-$(mktemp -d /tmp/freshet-startup.XXXXXX)}"
export FRESHET_KAFKA_PORT=28092 FRESHET_CONTROLLER_PORT=28093 FRESHET_POSTGRES_PORT=25432 \
  FRESHET_REGISTRY_PORT=28081 FRESHET_DEMO_WEB_PORT=28090 FRESHET_SCHEDULER_PORT=28080 \
  FRESHET_SINK_PORT=28082 FRESHET_STATS_PORT=28083 FRESHET_WORKER_PORT=28084 FRESHET_PUSH_PORT=28085
modules=(content-sink stats-aggregator push-receiver fetch-worker scheduler-producer)
./freshet stale >/dev/null
echo "start-up, class-data sharing on against off; $pairs pairs; data in $FRESHET_HOME"
echo "round  mode  load   infra ms  healthy ms  services ms  Started in (s): ${modules[*]}"
results=()
round() {
  local label="$1" mode="$2" log load infra all started pid
  log="$FRESHET_HOME/up-$label.log"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  FRESHET_CDS="$mode" ./freshet up --no-progress >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    grep -q "all services healthy" "$log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  infra="$(grep -o 'infrastructure ready in [0-9]*' "$log" | grep -o '[0-9]*$' || true)"
  all="$(grep -o 'all services healthy in [0-9]*' "$log" | grep -o '[0-9]*$' || true)"
  started=""
  for m in "${modules[@]}"; do
    started+="$(grep -ho 'Started [A-Za-z]* in [0-9.]* seconds' "$FRESHET_HOME/logs/$m.log" 2>/dev/null \
      | tail -1 | grep -o '[0-9.]* seconds' | cut -d' ' -f1) "
  done
  ./freshet down >/dev/null 2>&1 || true
  wait "$pid" || true
  if [ -z "$all" ]; then
    echo "$label: the stack did not come up; see $log" >&2
    exit 1
  fi
  printf '%-6s %-5s %-6s %-9s %-11s %-12s %s\n' "$label" "$mode" "$load" "$infra" "$all" "$((all - infra))" "$started"
  [ "$label" = record ] || results+=("$mode $((all - infra))")
}
round record on
for i in $(seq 1 "$pairs"); do
  round "$i" off
  round "$i" on
done
for mode in off on; do
  printf '%s\n' "${results[@]}" | awk -v m="$mode" '$1 == m {print $2}' | sort -n \
    | awk -v m="$mode" '{v[NR] = $1} END {printf "median services ms, sharing %s: %d (%d rounds)\n", m, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), NR}'
done
