#!/bin/bash
# merge.sh NAME: eg-NAME.csv, the two halves of screen.sh NAME in one file
cat eg-$1-a.csv > eg-$1.csv; grep -v '^#' eg-$1-b.csv | tail -n +2 >> eg-$1.csv
