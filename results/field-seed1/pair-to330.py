#!/usr/bin/env python3
"""Pairs runs played on from the positions at 230 lines to 330 lines with row 25's whole games
(its score before level 39 is the score at 330 lines of the same game: the to-330 run plays
with `--ai-line-cap 0`, as if the game went on).

usage: tar xzf row23-at230-games-0-999.tar.gz
       nestris bench --double-killscreen --line-cap 330 --ai-line-cap 0 --games N --first-game G \
           --seed 1 --continue p230 --threads 2 [options] --games-csv F
       python3 pair-to330.py F [F2 ...]
(row 25 plays as row 23 from 230 to 326 lines, so these positions are its own)"""
import sys

from pair import ms, rows


def main():
    base = rows("row25-games-0-999.csv")
    for f in sys.argv[1:]:
        c = rows(f)
        d = [c[k]["b39"] - base[k]["b39"] for k in sorted(c)]
        lost = [sum(g[k]["lines"] < 330 for k in c) for g in (base, c)]
        m, se = ms(d)
        print(f"{f}: {len(d)} games, before level 39 {m:+,.0f} +- {se:,.0f}; "
              f"lost below 330 lines {lost[0]} -> {lost[1]}")


if __name__ == "__main__":
    main()
