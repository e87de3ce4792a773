#!/usr/bin/env python3
"""Row 23 on all 1000 of the headline's games, from the files in this folder.

Games 0-499: row 23's whole games (row23-games-0-249.csv, row23-games-250-499.csv).
Games 500-999: row 22's whole games (row22-games-500-999.csv), each game that reached 300
lines replaced by row 23's game played on from its position there (row23-from300-*.csv;
game k of such a run is the k-th game-*.txt of p300-500/ or p300-750/, unpacked from
row22-at300-games-500-999.tar.gz). Row 23 changes the game from 326 lines only, so the 21
games that ended before 300 lines are its own. Writes row23-games-0-999.csv and prints the
headline's figures (percentiles by linear interpolation between ranks, as `nestris bench`).

usage: tar xzf row22-at300-games-500-999.tar.gz && python3 assemble-row23.py
"""
import os

from pair import rows
from report import report_and_write


whole = {}
for f in ["row23-games-0-249.csv", "row23-games-250-499.csv"]:
    whole.update(rows(f))
rest = rows("row22-games-500-999.csv")
source = {g: "row 22 whole game (ended before 300 lines, identical)" for g in rest}
for folder, f in [("p300-500", "row23-from300-500.csv"), ("p300-750", "row23-from300-750.csv")]:
    files = sorted(x for x in os.listdir(folder) if x.startswith("game-"))
    for k, v in rows(f).items():
        g = int(files[k][5:11])
        rest[g] = dict(v, b19=rest[g]["b19"], b29=rest[g]["b29"], tl=None)
        source[g] = "row 23 from row 22's position at 300 lines"


games = {**whole, **rest}
source.update({g: "whole game" for g in whole})
report_and_write(games, source, "row23-games-0-999.csv",
                 "row 23 (the default since 2026-11-27), field format, seed 1; assemble-row23.py wrote it")
