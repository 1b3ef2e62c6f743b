#!/usr/bin/env bash
# Mean delay (p95) of each policy averaged over eight starts of the same window, 0..7 h apart,
# without peers: a quick check of a candidate against `adaptive` on a trace whose mean is a few
# dumps (feeds-complete), where one start is a phase lottery. Run from the repository root after
# `./mvnw -o -q -pl cadence-lab -am package -DskipTests`.
# Usage: phase-mean.sh TRACE(feeds|feeds-complete|...) feed|page FROM-DATE TO-DATE BUDGET POLICIES
set -euo pipefail
JAVA="$(bin/find-java) ${JOPT:-}"
T=$1; O=$2; F=$3; E=$4; B=$5; P=$6
for h in 00 01 02 03 04 05 06 07; do
  nice -n 10 $JAVA -jar cadence-lab/target/cadence-lab.jar simulate --trace cadence-lab/traces/$T.csv --observe $O \
    --from "${F}T$h:00:00Z" --to "${E}T$h:00:00Z" --budget-per-hour "$B" --policies "$P" --threads 2 2>/dev/null | tail -n +2
done | awk -v b="$B" -v t="$T" '{s[$1]+=$3; p[$1]+=$5; n[$1]++; if(!($1 in o)){o[$1]=++k; nm[k]=$1}}
  END{printf "%s %s / h, 8 starts:", t, b; for(i=1;i<=k;i++){x=nm[i]; printf " %s %.3f (%.2f)", x, s[x]/n[x], p[x]/n[x]} print ""}'
