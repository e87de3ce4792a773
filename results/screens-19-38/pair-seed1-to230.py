#!/usr/bin/env python3
"""Pair runs of seed 1's games to 230 lines with row 27's whole games before levels 19 and 29.

    python3 pair-seed1-to230.py F [F ...]

Rows 23-27 play the same games to 230 lines, so `../field-seed1/row27-games-0-999.csv`'s
scores before levels 19 and 29 are the default's there. Prints the paired gains with their
standard errors and the games lost before 130
and 230 lines (`../field-seed1/pair.py`'s `against_row27`).
"""
import os, sys

FIELD = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'field-seed1')
sys.path.insert(0, FIELD)
from pair import against_row27  # noqa: E402

against_row27(sys.argv[1:], (('b19', 'before level 19'), ('b29', 'before level 29')), (130, 230))
