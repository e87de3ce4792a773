#!/usr/bin/env python3
"""Row 29 in the vanilla format (no double killscreen), on the headline's games whose
positions at 330 lines its runs saved, beside the same games in the field's format.

    python3 vanilla.py POSITIONS_DIR [VANILLA_DIR]

POSITIONS_DIR holds the folders of row29-p330.tar.gz (row29-p330-0, -500, -985);
VANILLA_DIR (default: this folder) the CSVs of the runs from them, one per folder:

    nestris bench --format vanilla --position row29-p330-G --games N --threads 1 \
        --games-csv vanilla-from330-G.csv --resume

Game i of vanilla-from330-G.csv started from the i-th position file of row29-p330-G by
name (game-000355.txt ...), so it is the headline's game of that number played on from 330
lines by the original game's rules. The two formats play the same game to 326 lines (the
double killscreen's table readies the stack in the last 4 lines of level 38), so these are
the field's play to 330 lines and the original game's from there (README.md: an
approximation of the vanilla game). A game of the ranges the folders cover (355-499,
823-999) that ended before 326 lines is the same game in both, taken from the headline's
CSVs; the scores before levels 19, 29 and 39 are the headline's in either format. Prints the
headline's figures of those games in each format and their paired difference.
"""
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "field-seed1"))
from report import report  # noqa: E402

FOLDERS = {0: range(355, 500), 500: range(823, 985), 985: range(985, 1000)}


def read(path):
    """The game rows of a bench CSV (its comment line, header, rows) by game number."""
    with open(path) as f:
        rows = list(csv.reader(f))
    head = rows[1]
    return {int(r[0]): dict(zip(head, r)) for r in rows[2:] if len(r) == len(head)}


def game(row, pre):
    """A row in report.py's form; `pre` the row whose scores before 19/29/39 it takes."""
    return dict(
        score=int(row["score"]), lines=int(row["lines"]),
        b19=int(pre["before_19"]), b29=int(pre["before_29"]), b39=int(pre["before_39"]),
        tl=None,
    )


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    positions = sys.argv[1]
    runs = sys.argv[2] if len(sys.argv) > 2 else HERE
    field = {}
    for g in FOLDERS:
        field.update(read(os.path.join(HERE, f"row29-s1-{g}.csv")))
    vanilla, headline = {}, {}
    for g, numbers in FOLDERS.items():
        folder = os.path.join(positions, f"row29-p330-{g}")
        files = sorted(f for f in os.listdir(folder) if f.endswith(".txt"))
        ids = [int(f[len("game-"):-len(".txt")]) for f in files]
        path = os.path.join(runs, f"vanilla-from330-{g}.csv")
        played = read(path) if os.path.exists(path) else {}
        for i, n in enumerate(ids):
            if i in played:
                vanilla[n] = game(played[i], field[n])
                headline[n] = game(field[n], field[n])
        # The games of the range without a position ended before 330 lines: the same game.
        done_to = max((ids[i] for i in played), default=numbers.start - 1)
        for n in numbers:
            if n not in ids and n <= done_to:
                assert int(field[n]["lines"]) < 326, n
                vanilla[n] = headline[n] = game(field[n], field[n])
    keys = sorted(vanilla)
    if not keys:
        sys.exit("no vanilla games played yet")
    report([vanilla[k] for k in keys], "vanilla format (row 29)")
    report([headline[k] for k in keys], "field format, the same games")
    d = [vanilla[k]["score"] - headline[k]["score"] for k in keys]
    m = sum(d) / len(d)
    se = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1) / len(d))
    print(f"vanilla - field: {m:+,.0f} +- {se:,.0f} a game (paired, {len(d)} games: "
          f"{min(keys)}-{max(keys)} of the ranges {', '.join(f'{r.start}-{r.stop - 1}' for r in FOLDERS.values())})")


if __name__ == "__main__":
    main()
