#!/usr/bin/env python3
"""Issue 23's targets from `simulate --tune-peers` CSVs named FAMILY-bBUDGET-all.csv (whole
families) and the halves FAMILY-bBUDGET-tuning|held-out.csv (no peers): per family × budget, each
policy's mean delay (h) and p95 (h), against the best in-sample tuned peer and fixed.
Usage: burst-table.py DIR [policy ...]"""
import csv, os, sys
d = sys.argv[1]
pols = sys.argv[2:] or ['adaptive', 'adaptive_burst']
fams = [('pages', ['12.5', '50', '200']), ('feeds', ['2.5', '10', '40']),
        ('feeds-complete', ['0.5', '2', '8']), ('releases', ['2.5', '10', '40'])]
print('| family | budget / h | policy | mean (p95) h | best in-sample tuned peer, mean (p95) h | fixed, mean (p95) h | ÷ best peer | ÷ fixed | p95 ÷ fixed | met? | × oracle: all / tuning / held-out half |')
print('| --- ' * 11 + '|')
for fam, bs in fams:
    for b in bs:
        f = os.path.join(d, f'{fam}-b{b}-all.csv')
        if not os.path.exists(f):
            continue
        rows = {r['policy']: r for r in csv.DictReader(open(f))}
        m = lambda p, rows=rows: float(rows[p]['mean_delay_h'])
        q = lambda p, rows=rows: float(rows[p]['p95_delay_h'])
        best = min((p for p in rows if p.endswith('_tuned')), key=m)
        for p in pols:
            halves = []
            for h in ['all', 'tuning', 'held-out']:
                hr = {r['policy']: r for r in csv.DictReader(open(os.path.join(d, f'{fam}-b{b}-{h}.csv')))}
                halves.append(float(hr[p]['mean_delay_h']) / float(hr['oracle']['mean_delay_h']))
            r1, r2, r3 = m(p) / m(best), m(p) / m('fixed'), q(p) / q('fixed')
            met = 'yes' if r1 <= 1 and r2 <= 1 and r3 <= 1.1 else 'no'
            print(f"| {fam} | {b} | {p} | {m(p):.3f} ({q(p):.2f}) | {best[:-6]} {m(best):.3f} ({q(best):.2f}) | "
                  f"{m('fixed'):.3f} ({q('fixed'):.2f}) | {r1:.2f} | {r2:.2f} | {r3:.2f} | {met} | "
                  + ' / '.join(f'{x:.2f}' for x in halves) + ' |')
