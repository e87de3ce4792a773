#!/usr/bin/env python3
"""Pairs runs of the killscreen's sighted proxy game by game (docs/experiments.md, "After row 24": games
500-999 played on from row 23's positions at 230 lines to 330, the next piece seen at once:
`nestris bench --double-killscreen --line-cap 330 --ai-line-cap 0 --reaction 0 --games 500
--first-game 500 --seed 1 --continue p230 --threads 2 [--weights W] --games-csv k-NAME.csv`).

usage: tar xzf killscreen-proxy-from230-games-500-999.tar.gz && python3 pair-killscreen-proxy.py CAND... [--base NAME]
(names as in k-NAME.csv; the base defaults to `base`, row 24's tables)"""
import sys

from pair import ms, rows


def main():
    args = sys.argv[1:]
    base = "base"
    if "--base" in args:
        i = args.index("--base")
        base = args[i + 1]
        del args[i:i + 2]
    b = rows(f"k-{base}.csv")
    for cand in args:
        c = rows(f"k-{cand}.csv")
        games = sorted(set(b) & set(c))
        m, se = ms([c[g]["score"] - b[g]["score"] for g in games])
        t, _ = ms([c[g]["tl"] - b[g]["tl"] for g in games])
        lost = [sum(1 for g in games if x[g]["lines"] < 330) for x in (b, c)]
        print(f"{cand} vs {base}: {len(games)} games, gain {m:+,.0f} +- {se:,.0f} to 330 lines; "
              f"Tetris lines a game {t:+.1f}; games lost before 330 lines {lost[0]} -> {lost[1]}")


if __name__ == "__main__":
    main()
