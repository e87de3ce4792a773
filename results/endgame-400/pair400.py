#!/usr/bin/env python3
"""Pairs endgame screens with their base on the games that reach 400 lines.

Usage: pair400.py BASE.csv NEW.csv [NEW.csv ...]

Each file is a `bench --games-csv` run played on from the same positions saved at 400
lines (the games that ended before 400 are the same in every run, passed over). Prints,
per screen, the mean gain a game over the games the base took past 400 lines with its
standard error, the Tetris lines a game, and the games each run took to the 430-line cap.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "field-seed1"))
from pair import ms, rows  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base = rows(sys.argv[1])
    played = [g for g, d in base.items() if d["lines"] >= 400]
    at_cap = sum(base[g]["lines"] >= 430 for g in played)
    print(f"base {sys.argv[1]}: {len(played)} games past 400 lines, {at_cap} at the cap")
    for path in sys.argv[2:]:
        new = rows(path)
        games = [g for g in played if g in new]
        gain, se = ms([new[g]["score"] - base[g]["score"] for g in games])
        tl, _ = ms([new[g]["tl"] - base[g]["tl"] for g in games])
        cap = sum(new[g]["lines"] >= 430 for g in games)
        print(
            f"{path}: {len(games)} games, gain {gain:+,.0f} +- {se:,.0f}, "
            f"Tetris lines {tl:+.2f}, at the cap "
            f"{sum(base[g]['lines'] >= 430 for g in games)} -> {cap}"
        )


if __name__ == "__main__":
    main()
