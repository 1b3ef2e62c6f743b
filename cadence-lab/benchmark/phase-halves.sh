#!/usr/bin/env bash
# Expected figures over the phase of the fetches: every cell of issue 23's targets (feeds,
# feeds-complete, releases at 1/4x, 1x, 4x the suggested budget; the whole family and both halves)
# run at eight starts 3 h apart (`--shifts 8 --shift-days 0.125`, the window moved back over a
# day), no peers. One CSV per cell: DIR/<family>-b<budget>-<all|tuning|held-out>.csv, every
# window's reports. Table: `python3 cadence-lab/benchmark/phase-halves-table.py DIR`.
# Run from the repository root after `./mvnw -o -q -pl cadence-lab -am package -DskipTests`.
# Pages are left out (921 sources: a start moves their figures little, and each run takes ~30 s).
# Usage: phase-halves.sh DIR [POLICIES]   (measured: 17.5 min wall, 21 min CPU on the 2-core machine)
set -euo pipefail
DIR=$1
P=${2:-oracle,adaptive,adaptive_bounded,adaptive_mixture,fixed}
JAVA="$(bin/find-java) ${JOPT:-}"
mkdir -p "$DIR"
cell() { # family trace observe from to budget half
  local half=()
  [ "$7" != all ] && half=(--half "$7")
  nice -n 10 $JAVA -jar cadence-lab/target/cadence-lab.jar simulate --trace "cadence-lab/traces/$2" \
    --observe "$3" --from "$4" --to "$5" --budget-per-hour "$6" "${half[@]}" --policies "$P" \
    --shifts 8 --shift-days 0.125 --threads 2 --out "$DIR/$1-b$6-$7.csv" >/dev/null 2>&1
  echo "$1 $6/h $7 done" >&2
}
for h in all tuning held-out; do
  for b in 2.5 10 40; do cell feeds feeds.csv feed 2025-02-18T21:00:00Z 2026-02-18T21:00:00Z $b $h; done
  for b in 0.5 2 8; do cell feeds-complete feeds-complete.csv feed 2025-08-22T21:00:00Z 2026-08-22T21:00:00Z $b $h; done
  for b in 2.5 10 40; do cell releases releases.csv page 2025-08-22T21:00:00Z 2026-08-22T21:00:00Z $b $h; done
done
