#!/usr/bin/env python3
"""One markdown row per `<family>-b<budget>-<half>.csv`: each Freshet policy's mean delay × the
oracle's and, in brackets, its p95 ÷ fixed's. Usage: halves-table.py DIR"""
import csv, glob, os, re, sys

order = ['pages', 'feeds', 'feeds-complete', 'releases']
halves = ['all', 'tuning', 'held-out']
def key(f):
    m = re.match(r'(.*)-b([0-9.]+)-(all|tuning|held-out)\.csv', os.path.basename(f))
    return (order.index(m.group(1)), float(m.group(2)), halves.index(m.group(3)))
files = sorted(glob.glob(os.path.join(sys.argv[1], '*-*.csv')), key=key)
pols = [p for p in ['adaptive', 'adaptive_bounded', 'adaptive_mixture']]
print('| family | budget / h | half | ' + ' | '.join(f'{p} (p95 ÷ fixed)' for p in pols) + ' | fixed |')
print('| --- | --- | --- | ' + ' | '.join('---' for _ in pols) + ' | --- |')
for f in files:
    m = re.match(r'(.*)-b([0-9.]+)-(all|tuning|held-out)\.csv', os.path.basename(f))
    rows = {r['policy']: r for r in csv.DictReader(open(f))}
    fx = float(rows['fixed']['p95_delay_h'])
    cells = []
    for p in pols:
        r = rows.get(p)
        cells.append('–' if r is None else f"{float(r['delay_vs_oracle']):.2f} ({float(r['p95_delay_h'])/fx:.2f})")
    print(f"| {m.group(1)} | {m.group(2)} | {m.group(3)} | " + ' | '.join(cells) + f" | {float(rows['fixed']['delay_vs_oracle']):.2f} |")
