#!/usr/bin/env python3
"""The table of phase-halves.sh's CSVs: per cell and policy, the mean over the eight starts of
mean delay / the oracle's (± the standard error of that mean) and, in brackets, of p95 / fixed's
p95. Against fixed, paired over the starts (the difference of the two ratios start by start, its
mean and standard error): '≈' within two standard errors (no difference these starts can show),
'worse' above by more than that (the issue's mean bar missed); 'p95' marks a p95 above 1.1 x
fixed's (the tail bar missed).
Usage: phase-halves-table.py DIR [POLICIES]"""
import csv, math, os, sys
from collections import defaultdict

d = sys.argv[1]
pols = (sys.argv[2] if len(sys.argv) > 2 else 'adaptive,adaptive_bounded,adaptive_mixture,fixed').split(',')
cells = [('feeds', ['2.5', '10', '40']), ('feeds-complete', ['0.5', '2', '8']), ('releases', ['2.5', '10', '40'])]


def mean_se(v):
    m = sum(v) / len(v)
    if len(v) < 2:
        return m, float('nan')
    return m, math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v))


print('| family | budget / h | half | starts | ' + ' | '.join(pols) + ' |')
print('| --- | --- | --- | --- | ' + ' | '.join('---' for _ in pols) + ' |')
for fam, budgets in cells:
    for b in budgets:
        for half in ['all', 'tuning', 'held-out']:
            fn = f'{d}/{fam}-b{b}-{half}.csv'
            if not os.path.exists(fn):
                continue
            w = defaultdict(dict)
            for r in csv.DictReader(open(fn)):
                w[r['window_from']][r['policy']] = (float(r['mean_delay_h']), float(r['p95_delay_h']))
            out = []
            fixed = [x['fixed'][0] / x['oracle'][0] for x in w.values()]
            for p in pols:
                ratio = [x[p][0] / x['oracle'][0] for x in w.values()]
                tail = [x[p][1] / x['fixed'][1] for x in w.values()]
                m, se = mean_se(ratio)
                t = sum(tail) / len(tail)
                diff_m, diff_se = mean_se([r - f for r, f in zip(ratio, fixed)])
                marks = []
                if p != 'fixed':
                    if abs(diff_m) < 2 * diff_se:
                        marks.append('≈')
                    elif diff_m > 0:
                        marks.append('worse')
                if t > 1.1:
                    marks.append('p95')
                out.append(f'{m:.2f} ± {se:.2f} ({t:.2f})' + (' ' + ', '.join(marks) if marks else ''))
            print(f'| {fam} | {b} | {half} | {len(w)} | ' + ' | '.join(out) + ' |')
