#!/usr/bin/env python3
"""Row 24 on all 1000 of the headline's games, from the files in this folder.

Row 24 (`[double_killscreen] excess_ready = 40`) changes the game from 326 lines only (row
23's `ready_lines = 4` puts the double killscreen's table in force there). Its games are
row 23's (row23-games-0-999.csv), each game that reached 326 lines replaced by row 24's
game played on from row 23's position there (excessready40-from326-*.csv; game k of such a
run is the k-th game-*.txt of p326-0/, p326-250/, p326-500/ or p326-750/, unpacked from
row23-at326-games-0-999.tar.gz, whose files are named by game number). Writes
row24-games-0-999.csv and prints the headline's figures, as assemble-row23.py does.

usage: tar xzf row23-at326-games-0-999.tar.gz && python3 assemble-row24.py
"""
from pair import rows
from report import played_on, report_and_write

games = rows("row23-games-0-999.csv")
source = {g: "row 23 whole game (ended before 326 lines, identical)" for g in games}
played_on(games, source, "excessready40-from326-{x}.csv", "row 24 from row 23's position at 326 lines")

report_and_write(games, source, "row24-games-0-999.csv",
                 "row 24 (the default since 2026-11-28), field format, seed 1; assemble-row24.py wrote it")
