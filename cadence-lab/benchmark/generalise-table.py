#!/usr/bin/env python3
"""Summarises the CSVs written by generalise.sh: one row per family, budget and half, with mean
delay / oracle of adaptive (and of the candidates adaptive_rhythm, adaptive_kinds when run), the best in-sample tuned peer and fixed,
and p95 of adaptive / fixed. "met?": adaptive <= the best tuned peer and <= fixed (mean), and its
p95 <= 1.1 x fixed's.
Usage: generalise-table.py DIR [BEFORE_DIR]  (with BEFORE_DIR, adaptive before/after side by side)"""
import csv, os, re, sys

def load(d):
    rows = {}
    for f in sorted(os.listdir(d)):
        m = re.match(r'(.+)-b([0-9.]+)-(all|tuning|held-out)\.csv$', f)
        if not m:
            continue
        with open(os.path.join(d, f)) as fh:
            rows[(m.group(1), float(m.group(2)), m.group(3))] = {r['policy']: r for r in csv.DictReader(fh)}
    return rows

order = ['pages', 'feeds', 'feeds-complete', 'feeds-complete-grid', 'releases', 'releases-grid']
after = load(sys.argv[1])
before = load(sys.argv[2]) if len(sys.argv) > 2 else None
def key(k):
    return (order.index(k[0]) if k[0] in order else 99, ['all', 'tuning', 'held-out'].index(k[2]), k[1])
head = '| family | budget/h | half |'
if before:
    head += ' adaptive before | adaptive after |'
else:
    head += ' adaptive |'
head += ' adaptive_rhythm (p95 / fixed) | adaptive_kinds (p95 / fixed) | best tuned peer | fixed | p95 h adaptive / fixed (ratio) | met? |'
print(head)
print('|' + ' --- |' * (head.count('|') - 1))
for k in sorted(after, key=key):
    r = after[k]
    a = float(r['adaptive']['delay_vs_oracle'])
    peers = [(float(v['delay_vs_oracle']), p[:-6]) for p, v in r.items() if p.endswith('_tuned')]
    bp, bn = min(peers)
    fx = float(r['fixed']['delay_vs_oracle'])
    p95 = float(r['adaptive']['p95_delay_h']) / float(r['fixed']['p95_delay_h'])
    met = a <= bp and a <= fx and p95 <= 1.1
    line = f'| {k[0]} | {k[1]:g} | {k[2]} |'
    if before:
        b = before.get(k)
        line += (f" {float(b['adaptive']['delay_vs_oracle']):.2f} |" if b else ' – |')
    line += f' {a:.2f} |'
    for extra in ('adaptive_rhythm', 'adaptive_kinds'):
        e = r.get(extra)
        line += (f" {float(e['delay_vs_oracle']):.2f} ({float(e['p95_delay_h']) / float(r['fixed']['p95_delay_h']):.2f}) |" if e else ' – |')
    line += (f' {bn} {bp:.2f} | {fx:.2f} |'
             f" {float(r['adaptive']['p95_delay_h']):.1f} / {float(r['fixed']['p95_delay_h']):.1f} ({p95:.2f}) |"
             f' {"yes" if met else "no"} |')
    print(line)
