#!/usr/bin/env python3
"""Pairs endgame screens with their base on the games that reach 400 lines.

Usage: pair400.py BASE.csv NEW.csv [NEW.csv ...]

Each file is a `bench --games-csv` run played on from the same positions saved at 400
lines (the games that ended before 400 are the same in every run, passed over). Prints,
per screen, the mean gain a game over the games the base took past 400 lines with its
standard error, the Tetris lines a game, and the games each run took to the 430-line cap.
"""
import csv
import statistics
import sys


def load(path):
    rows = [line for line in open(path) if not line.startswith("#")]
    return {int(d["game"]): d for d in csv.DictReader(rows)}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base = load(sys.argv[1])
    played = [g for g, d in base.items() if int(d["lines"]) >= 400]
    at_cap = sum(int(base[g]["lines"]) >= 430 for g in played)
    print(f"base {sys.argv[1]}: {len(played)} games past 400 lines, {at_cap} at the cap")
    for path in sys.argv[2:]:
        new = load(path)
        games = [g for g in played if g in new]
        gain = [int(new[g]["score"]) - int(base[g]["score"]) for g in games]
        tl = [int(new[g]["tetris_lines"]) - int(base[g]["tetris_lines"]) for g in games]
        cap = sum(int(new[g]["lines"]) >= 430 for g in games)
        se = statistics.stdev(gain) / len(gain) ** 0.5 if len(gain) > 1 else float("nan")
        print(
            f"{path}: {len(games)} games, gain {statistics.mean(gain):+,.0f} +- {se:,.0f}, "
            f"Tetris lines {statistics.mean(tl):+.2f}, at the cap "
            f"{sum(int(base[g]['lines']) >= 430 for g in games)} -> {cap}"
        )


if __name__ == "__main__":
    main()
