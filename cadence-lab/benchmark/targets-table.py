#!/usr/bin/env python3
"""Issue 23's targets per family × budget from `simulate --tune-peers --tune-window` CSVs:
for each Freshet policy, mean delay ÷ the best in-sample tuned peer's, ÷ the best out-of-sample
tuned peer's, ÷ fixed's, and p95 ÷ fixed's; "met" = ≤ 1, ≤ 1 (in-sample), ≤ 1, ≤ 1.1.
Usage: targets-table.py DIR [policy ...]"""
import csv, glob, os, re, sys

order = ['pages', 'feeds', 'feeds-complete', 'releases']
pols = sys.argv[2:] or ['adaptive', 'adaptive_bounded', 'adaptive_mixture']
def key(f):
    m = re.match(r'(.*)-b([0-9.]+)\.csv', os.path.basename(f))
    return (order.index(m.group(1)), float(m.group(2)))
print('| family | budget / h | policy | × oracle | ÷ best in-sample peer | ÷ best out-of-sample peer | ÷ fixed | p95 ÷ fixed | met? |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for f in sorted(glob.glob(os.path.join(sys.argv[1], '*.csv')), key=key):
    m = re.match(r'(.*)-b([0-9.]+)\.csv', os.path.basename(f))
    rows = {r['policy']: r for r in csv.DictReader(open(f))}
    mean = lambda p: float(rows[p]['mean_delay_h'])
    ins = min((p for p in rows if p.endswith('_tuned')), key=mean)
    oos = min((p for p in rows if p.endswith('_oos')), key=mean)
    for p in pols:
        a = mean(p); p95 = float(rows[p]['p95_delay_h']) / float(rows['fixed']['p95_delay_h'])
        r1, r2, r3 = a / mean(ins), a / mean(oos), a / mean('fixed')
        met = 'yes' if r1 <= 1 and r3 <= 1 and p95 <= 1.1 else ('out-of-sample only' if r2 <= 1 and r3 <= 1 and p95 <= 1.1 else 'no')
        print(f"| {m.group(1)} | {m.group(2)} | {p} | {float(rows[p]['delay_vs_oracle']):.2f} | {r1:.2f} ({ins[:-6]}) | {r2:.2f} ({oos[:-4]}) | {r3:.2f} | {p95:.2f} | {met} |")
