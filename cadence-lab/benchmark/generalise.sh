#!/usr/bin/env bash
# Every policy on the four real trace families — all sources, and each half of them (split by a
# hash of the source id) — at ¼×, 1× and 4× the suggested budget, with in-sample tuned peers; the
# two complete-history families also with their first-seen times left on the poll grid.
# POLICIES=... to name the policies (default: all, plus the adaptive candidates).
# Usage: cadence-lab/benchmark/generalise.sh OUTDIR [family ...]   (run from the repository root)
set -euo pipefail
out=${1:?usage: generalise.sh OUTDIR [family ...]}; shift
fams=${*:-pages feeds feeds-complete releases}
JAVA=${JAVA:-$(bin/find-java)}
jar=${JAR:-cadence-lab/target/cadence-lab.jar}   # JAR=... to measure another build
mkdir -p "$out"
policies=${POLICIES:-oracle,adaptive,adaptive_rhythm,adaptive_kinds,adaptive_tracker,feed_frequency,signal_adaptive,fixed,nutch,stormcrawler,miniflux,commafeed}
run() { # name trace observe from to budget [extra...]
  local name=$1 trace=$2 observe=$3 from=$4 to=$5 budget=$6; shift 6
  for half in all tuning held-out; do
    local split=(); [ "$half" = all ] || split=(--half "$half")
    nice -n 10 "$JAVA" -jar "$jar" simulate --trace "cadence-lab/traces/$trace" --observe "$observe" \
      --from "$from" --to "$to" --budget-per-hour "$budget" --policies "$policies" --tune-peers \
      "${split[@]}" "$@" --out "$out/$name-b$budget-$half.csv" > "$out/$name-b$budget-$half.txt" 2>&1
  done
}
for f in $fams; do
  case $f in
    pages) for b in 12.5 50 200; do run pages pages.csv page 2025-01-01T00:00:00Z 2026-08-22T00:00:00Z $b; done ;;
    feeds) for b in 2.5 10 40; do run feeds feeds.csv feed 2025-02-18T00:00:00Z 2026-02-18T00:00:00Z $b; done ;;
    feeds-complete) for b in 0.5 2 8; do
        run feeds-complete feeds-complete.csv feed 2025-08-22T00:00:00Z 2026-08-22T00:00:00Z $b
        run feeds-complete-grid feeds-complete.csv feed 2025-08-22T00:00:00Z 2026-08-22T00:00:00Z $b --grid-minutes 60
      done ;;
    releases) for b in 2.5 10 40; do
        run releases releases.csv page 2025-08-22T00:00:00Z 2026-08-22T00:00:00Z $b
        run releases-grid releases.csv page 2025-08-22T00:00:00Z 2026-08-22T00:00:00Z $b --grid-minutes 360
      done ;;
  esac
done
