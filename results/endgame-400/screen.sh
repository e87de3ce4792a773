#!/bin/bash
# screen.sh NAME [options...]: the field's format from seed 7000's positions at 400 lines
# (p7000-at400.tar.gz unpacked here), both halves side by side on 2 cores; eg-NAME-a.csv and
# eg-NAME-b.csv (merge.sh NAME joins them, pair400.py pairs them with the base's).
# NESTRIS names the binary (default: nestris on PATH).
nestris=${NESTRIS:-nestris}
name=$1; shift
$nestris bench --format field --games 191 --first-game 8 --seed 7000 --continue p400-a --threads 1 "$@" --games-csv eg-$name-a.csv > eg-$name-a.log 2>&1 &
$nestris bench --format field --games 190 --first-game 208 --seed 7000 --continue p400-b --threads 1 "$@" --games-csv eg-$name-b.csv > eg-$name-b.log 2>&1 &
wait
