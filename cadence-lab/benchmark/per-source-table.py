#!/usr/bin/env python3
"""Where a mean delay comes from: `simulate --per-source` CSVs of the same window started at
different hours, averaged over the starts — per source, changes, each policy's delay sum (h) and
fetches. Usage: per-source-table.py 'GLOB' [policy ...]"""
import csv, glob, sys, collections
files = sorted(glob.glob(sys.argv[1]))
pols = sys.argv[2:] or ['oracle', 'adaptive', 'fixed', 'commafeed_tuned', 'stormcrawler_tuned']
acc = collections.defaultdict(lambda: collections.defaultdict(list))
changes = {}
for f in files:
    for r in csv.DictReader(open(f)):
        acc[r['policy']][r['source_id']].append((float(r['delay_sum_h']), int(r['fetches'])))
        changes[r['source_id']] = int(r['changes'])
print(f'({len(files)} starts) | source | changes | ' + ' | '.join(f'{p}: delay h, fetches' for p in pols) + ' |')
print('| --- ' * (len(pols) + 2) + '|')
tot = collections.Counter()
for s in sorted(changes):
    cells = []
    for p in pols:
        v = acc[p][s]; d = sum(x[0] for x in v) / len(v); n = sum(x[1] for x in v) / len(v); tot[p] += d
        cells.append(f'{d:.0f}, {n:.0f}')
    print(f'| {s} | {changes[s]} | ' + ' | '.join(cells) + ' |')
print(f'| all | {sum(changes.values())} | ' + ' | '.join(f'{tot[p]:.0f}' for p in pols) + ' |')
