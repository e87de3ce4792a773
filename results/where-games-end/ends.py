#!/usr/bin/env python3
"""Where the headline's whole games end, by lines, for rows 27, 28, 30 and 31, and what a
game earns from level 39 by where it ended (row 31). Run from this folder."""
import csv
import os

R = ".."
SETS = {
    "row 27": [f"{R}/field-seed1/row27-games-0-999.csv"],
    "row 28": [f"{R}/fifth-ply/row28-games-0-999.csv"],
    "row 30": [f"{R}/killscreen-rollouts32/rk32-field-s1-0.csv",
               f"{R}/killscreen-rollouts32/rk32-field-s1-500.csv"],
    "row 31": [f"{R}/dh105-blind4/hdb4-from230-{g}.csv" for g in (0, 500, 985)],
}
BANDS = [(0, 230), (230, 240), (240, 250), (250, 260), (260, 270), (270, 300), (300, 330),
         (330, 340), (340, 360), (360, 400), (400, 430), (430, 10_000)]


def load(files):
    games = {}
    for f in files:
        lines = [l for l in open(f) if not l.startswith("#")]
        for r in csv.DictReader(lines):
            games[int(r["game"])] = r
    return games


def label(a, b):
    return f"{a}+" if b == 10_000 else f"{a}-{b - 1}"


print("| row | games | " + " | ".join(label(a, b) for a, b in BANDS) + " |")
print("|---|---:|" + "---:|" * len(BANDS))
for name, files in SETS.items():
    if not all(os.path.exists(f) for f in files):
        continue
    g = load(files)
    lines = [int(r["lines"]) for r in g.values()]
    counts = [sum(1 for x in lines if a <= x < b) for a, b in BANDS]
    print(f"| {name} | {len(g)} | " + " | ".join(map(str, counts)) + " |")

print()
g = load(SETS["row 31"])
print("| row 31, ended at lines | games | mean score | mean points from level 39 |")
print("|---|---:|---:|---:|")
for a, b in [(0, 230), (230, 330), (330, 340), (340, 360), (360, 400), (400, 430), (430, 10_000)]:
    rs = [r for r in g.values() if a <= int(r["lines"]) < b]
    if not rs:
        continue
    score = sum(int(r["score"]) for r in rs) / len(rs)
    after = sum(int(r["score"]) - int(r["before_39"]) for r in rs if int(r["lines"]) >= 330)
    after = after / len(rs)
    print(f"| {label(a, b)} | {len(rs)} | {score:,.0f} | {after:,.0f} |")
