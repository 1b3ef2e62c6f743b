#!/usr/bin/env python3
"""Markdown tables from a directory of `simulate --out` CSVs (one per family × budget), with the
tuned peers' settings from the matching .txt (stdout + stderr of the run).
Usage: family-tables.py DIR"""
import csv, glob, os, re, sys

d = sys.argv[1]
def key(f):
    m = re.match(r'(.*)-b([0-9.]+)\.csv', os.path.basename(f))
    order = ['pages', 'feeds', 'feeds-complete', 'releases']
    return (order.index(m.group(1)) if m.group(1) in order else 9, float(m.group(2)))
for f in sorted(glob.glob(os.path.join(d, '*.csv')), key=key):
    name = os.path.basename(f)[:-4]
    rows = list(csv.DictReader(open(f)))
    fixed = next(float(r['p95_delay_h']) for r in rows if r['policy'] == 'fixed')
    print(f"**{name.replace('-b', ', ')} / h** (`{os.path.basename(f)}`)\n")
    print('| policy | fetches | mean delay h | p95 delay h | freshness | mean × oracle | p95 ÷ fixed |')
    print('| --- | --- | --- | --- | --- | --- | --- |')
    for r in rows:
        print(f"| {r['policy']} | {r['fetches']} | {float(r['mean_delay_h']):.3f} | {float(r['p95_delay_h']):.3f} | "
              f"{float(r['freshness']):.4f} | {float(r['delay_vs_oracle']):.3f} | {float(r['p95_delay_h'])/fixed:.2f} |")
    txt = f[:-4] + '.txt'
    if os.path.exists(txt):
        s = [l.strip() for l in open(txt) if re.match(r'^\w+_(tuned|oos): best', l)]
        if s:
            print('\nSettings: ' + '; '.join(s))
        t = [l.strip() for l in open(txt) if 'total' in l and 'cadence-lab' in l]
        if t:
            print(f"Wall time: {t[-1].split('total ')[-1]}")
    print()
