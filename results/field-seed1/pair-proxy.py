#!/usr/bin/env python3
"""Pairs two fast-proxy runs from the same positions game by game (docs/experiments.md, "After row 23":
`nestris bench --position p326-500|p326-750 --double-killscreen --reaction 0 --games N
[--weights W] --games-csv px-NAME-500|750.csv`).

usage: tar xzf proxy-from326-games-500-999.tar.gz && python3 pair-proxy.py CAND [BASE]
(names as in px-NAME-*.csv; BASE defaults to `base`, row 23's table)"""
import sys

from pair import ms, rows


def main():
    cand = sys.argv[1]
    base = sys.argv[2] if len(sys.argv) > 2 else "base"
    d, dl, cap, sb = [], [], [0, 0], []
    for x in (500, 750):
        b = rows(f"px-{base}-{x}.csv")
        c = rows(f"px-{cand}-{x}.csv")
        for k in sorted(set(b) & set(c)):
            d.append(c[k]["score"] - b[k]["score"])
            dl.append(c[k]["lines"] - b[k]["lines"])
            cap[0] += b[k]["lines"] >= 430
            cap[1] += c[k]["lines"] >= 430
            sb.append(b[k]["score"])
    m, se = ms(d)
    print(f"{cand} vs {base}: {len(d)} games, gain {m:+,.0f} +- {se:,.0f} (base {sum(sb) / len(sb):,.0f}); "
          f"lines {ms(dl)[0]:+.1f} +- {ms(dl)[1]:.1f}; at the cap {cap[0]} -> {cap[1]}")


if __name__ == "__main__":
    main()
