#!/usr/bin/env python3
"""Pairs runs from the headline's positions at 230 lines to 330 (seed 1, `--continue p230
--line-cap 330 --ai-line-cap 0`) with row 26's whole games before level 39, and with the
earlier run of the first piece alone by two plies at levels 29-38 on the games both played.

usage: python3 pair-levels29-38.py F [F2 ...]   (run from this folder)"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SEED1 = os.path.join(HERE, "..", "field-seed1")
sys.path.insert(0, SEED1)
from pair import ms, rows  # noqa: E402

PIECES_1 = [f"lookahead4-levels29-38-to330-games-{r}.csv" for r in ("0-9", "10-109", "110-430", "550-864")]


def main():
    base = rows(os.path.join(SEED1, "row26-games-0-999.csv"))
    one = {}
    for f in PIECES_1:
        one.update(rows(os.path.join(SEED1, f)))
    cand = {}
    for f in sys.argv[1:]:
        part = rows(f)
        ks = sorted(part)
        d = [part[k]["b39"] - base[k]["b39"] for k in ks]
        m, se = ms(d)
        print(f"{f}: games {ks[0]}-{ks[-1]} ({len(ks)}), before level 39 {m:+,.0f} +- {se:,.0f}; "
              f"lost below 330 lines {sum(base[k]['lines'] < 330 for k in ks)} -> "
              f"{sum(part[k]['lines'] < 330 for k in ks)}")
        cand.update(part)
    for name, ref in (("row 26", base), ("the first piece alone by two plies (`--rollout-lookahead 4 --rollout-lookahead-pieces 1`)", one)):
        ks = sorted(k for k in cand if k in ref)
        m, se = ms([cand[k]["b39"] - ref[k]["b39"] for k in ks])
        print(f"all, against {name}: {len(ks)} games, before level 39 {m:+,.0f} +- {se:,.0f}; "
              f"lost below 330 lines {sum(ref[k]['lines'] < 330 for k in ks)} -> "
              f"{sum(cand[k]['lines'] < 330 for k in ks)}")
    ks = sorted(cand)
    print(f"mean before level 39: {sum(cand[k]['b39'] for k in ks) / len(ks):,.0f} "
          f"(row 26 {sum(base[k]['b39'] for k in ks) / len(ks):,.0f} on the same games)")


if __name__ == "__main__":
    main()
