#!/usr/bin/env python3
"""Row 26 on all 1000 of the headline's games, from the files in this folder.

Row 26 (each playout's first two pieces placed by two plies where the double killscreen's
table plays, `rollout_lookahead_pieces` 2 beside row 25's lookahead of 4) changes the game
from 326 lines only, as row 25 does. Its games are row 25's (row25-games-0-999.csv), each
game that reached 326 lines replaced by row 26's game played on from row 23's position
there (lookahead4-2pieces-from326-*.csv; game k of such a run is the k-th game-*.txt of
p326-0/, p326-250/, p326-500/ or p326-750/, unpacked from row23-at326-games-0-999.tar.gz,
whose files are named by game number). Writes row26-games-0-999.csv and prints the
headline's figures, as assemble-row25.py does.

usage: tar xzf row23-at326-games-0-999.tar.gz && python3 assemble-row26.py
"""
from pair import rows
from report import played_on, report_and_write

games = rows("row25-games-0-999.csv")
source = {g: "row 25 whole game (ended before 326 lines, identical)" for g in games}
played_on(games, source, "lookahead4-2pieces-from326-{x}.csv", "row 26 from row 23's position at 326 lines")

report_and_write(games, source, "row26-games-0-999.csv",
                 "row 26 (the default since 2026-11-28), field format, seed 1; assemble-row26.py wrote it")
