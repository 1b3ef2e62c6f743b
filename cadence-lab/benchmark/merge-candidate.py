#!/usr/bin/env python3
"""Adds a candidate's rows, measured alone (`--policies oracle,CANDIDATE,fixed`), to a directory of
full `--tune-peers --tune-window` CSVs, so targets-table.py and family-tables.py compare it with
the peers already measured there (equal cost is calibrated per policy, so a policy's row does
not depend on which others ran; the oracle and fixed rows are checked to be the same).
Usage: merge-candidate.py FULL_DIR CANDIDATE_DIR OUT_DIR  (candidate files: <family>-b<budget>-*.csv)"""
import csv, glob, os, re, sys
full, cand, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
for f in sorted(glob.glob(os.path.join(cand, '*-b*-*.csv'))):
    m = re.match(r'(.*-b[0-9.]+)-[a-z]+\.csv', os.path.basename(f))
    if not m or not os.path.exists(os.path.join(full, m.group(1) + '.csv')):
        continue
    base = list(csv.DictReader(open(os.path.join(full, m.group(1) + '.csv'))))
    new = list(csv.DictReader(open(f)))
    have = {r['policy']: r for r in base}
    for r in new:
        if r['policy'] in ('oracle', 'fixed'):
            a, b = float(r['mean_delay_h']), float(have[r['policy']]['mean_delay_h'])
            if abs(a - b) > 1e-3 * b:
                sys.exit(f'{f}: {r["policy"]} {a} differs from {b} in the full run')
    extra = [r for r in new if r['policy'] not in have]
    at = next(i for i, r in enumerate(base) if r['policy'] == 'adaptive') + 1
    rows = base[:at] + extra + base[at:]
    with open(os.path.join(out, m.group(1) + '.csv'), 'w', newline='') as o:
        w = csv.DictWriter(o, fieldnames=list(base[0].keys()))
        w.writeheader()
        w.writerows({k: r.get(k, '') for k in base[0].keys()} for r in rows)
