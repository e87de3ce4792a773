#!/usr/bin/env python3
"""Pairs runs played on from the headline's positions at 230 lines to 330 (seed 1, the game's
own picker) with row 27's whole games before level 39: a killscreen screen held out.

usage: tar xzf ../field-seed1/row23-at230-games-0-999.tar.gz      (rows 23-27 play these games to 230)
       nestris bench --double-killscreen --line-cap 330 --ai-line-cap 0 --games 500 \\
           --first-game 0|500 --seed 1 --continue p230 --threads 1 [options] --games-csv F
       python3 pair-seed1-to330.py F [F2 ...]"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1'))
from pair import against_row27  # noqa: E402

against_row27(sys.argv[1:], (('b39', 'before level 39'),), (330,))
