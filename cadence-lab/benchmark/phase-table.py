#!/usr/bin/env python3
"""Phase-averaged comparison from runs of the same window started 0..7 h later (files
FAMILY-bBUDGET-fromHH.csv with their peer-grid lines in .tune, see cadence/README.md): every
policy's mean delay and p95 averaged over the starts; each peer grid point judged by its average
over the starts too ("best on the average": one setting, as a deployment would run it), next to
the per-start best of the grid ("_tuned", a different setting per start: the in-sample bar, which
on a trace whose mean is a few dumps picks the luckiest phase each time).
Usage: phase-table.py DIR FAMILY BUDGET... [-- policy ...]"""
import csv, glob, re, sys, statistics as st
args = sys.argv[1:]
pols = ['adaptive', 'adaptive_bounded', 'adaptive_burst', 'adaptive_ceiling', 'adaptive_flat', 'fixed']
if '--' in args:
    i = args.index('--'); pols = args[i + 1:]; args = args[:i]
d, fam, budgets = args[0], args[1], args[2:]
print('| budget / h | starts | oracle | ' + ' | '.join(pols) + ' | best per-start tuned peer (mean) | best grid setting on the average | adaptive ÷ per-start best | adaptive ÷ best on the average |')
print('| --- ' * (len(pols) + 7) + '|')
for b in budgets:
    runs = sorted(glob.glob(f'{d}/{fam}-b{b}-from*.csv'))
    pol, grid = {}, {}
    for r in runs:
        for x in csv.DictReader(open(r)):
            pol.setdefault(x['policy'], []).append((float(x['mean_delay_h']), float(x['p95_delay_h'])))
        for line in open(r[:-4] + '.tune'):
            m = re.search(r'tune (\w+\[[^\]]*\]): \d+ fetches, mean delay ([\d.]+) h', line)
            if m:
                grid.setdefault(m.group(1), []).append(float(m.group(2)))
    n = len(runs)
    mean = {p: st.mean(v[0] for v in vs) for p, vs in pol.items()}
    p95 = {p: st.mean(v[1] for v in vs) for p, vs in pol.items()}
    tuned = min((p for p in mean if p.endswith('_tuned')), key=mean.get)
    gavg = {k: st.mean(v) for k, v in grid.items() if len(v) == n}
    bk = min(gavg, key=gavg.get)
    cells = ' | '.join(f'{mean[p]:.3f} ({p95[p]:.2f})' for p in pols)
    print(f"| {b} | {n} | {mean['oracle']:.3f} ({p95['oracle']:.2f}) | {cells} | {tuned[:-6]} {mean[tuned]:.3f} ({p95[tuned]:.2f}) | "
          f"{bk} {gavg[bk]:.3f} | {mean['adaptive'] / mean[tuned]:.2f} | {mean['adaptive'] / gavg[bk]:.2f} |")
