#!/usr/bin/env bash
# Mean delay (p95) of each policy averaged over eight starts of the same window, 0..7 h apart,
# without peers: a quick check of a candidate against `adaptive` on a trace whose mean is a few
# dumps (feeds-complete), where one start is a phase lottery. Run from the repository root after
# `./mvnw -o -q -pl cadence-lab -am package -DskipTests`.
# Usage: [STEP=H] phase-mean.sh TRACE(feeds|feeds-complete|...) feed|page FROM-DATE TO-DATE BUDGET POLICIES
# STEP (hours between starts, default 1: starts 0..7 h) = 3 spreads the eight starts over a whole
# day (0, 3, …, 21 h). With STEP=1 the starts cover only 7 h of a day, so a policy that fetches a
# dormant feed every ~15 h meets a dump at a phase from only half of its cycle (issue 23,
# branch cadence-burst): use STEP=3 on feeds-complete.
set -euo pipefail
JAVA="$(bin/find-java) ${JOPT:-}"
T=$1; O=$2; F=$3; E=$4; B=$5; P=$6
STEP=${STEP:-1}
for i in 0 1 2 3 4 5 6 7; do
  h=$(printf %02d $((i * STEP)))
  nice -n 10 $JAVA -jar cadence-lab/target/cadence-lab.jar simulate --trace cadence-lab/traces/$T.csv --observe $O \
    --from "${F}T$h:00:00Z" --to "${E}T$h:00:00Z" --budget-per-hour "$B" --policies "$P" --threads 2 2>/dev/null | tail -n +2
done | awk -v b="$B" -v t="$T" -v step="$STEP" '{s[$1]+=$3; p[$1]+=$5; n[$1]++; if(!($1 in o)){o[$1]=++k; nm[k]=$1}}
  END{printf "%s %s / h, 8 starts %s h apart:", t, b, step; for(i=1;i<=k;i++){x=nm[i]; printf " %s %.3f (%.2f)", x, s[x]/n[x], p[x]/n[x]} print ""}'
