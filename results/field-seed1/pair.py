#!/usr/bin/env python3
"""Paired comparison of whole games (base CSVs of `nestris bench --games-csv`) with the same
games played on from saved positions (`bench --position DIR --games-csv F`).
usage: pair.py --base B.csv [B2.csv ...] --cand DIR:F.csv[:LO-HI] [DIR2:F2.csv[:LO-HI] ...]
Game k of a candidate run is the k-th game-*.txt file of DIR by name; games with no file
(they ended before the save) count as equal to the base. With LO-HI (the games DIR was saved
from), only games LO..=HI are paired, up to the last one the candidate run has played (a run
stopped part-way is paired on what it played); without, every base game that is in no folder
counts as ended before the save. A base file is a bench CSV or row23-games-0-999.csv."""
import sys, os, math, csv
def rows(path):
    """The games of a `nestris bench --games-csv` file by number: score, lines, Tetris lines
    and the scores before levels 19, 29 and 39 (assemble-row23.py reads them too)."""
    out = {}
    assembled = False
    for line in open(path):
        if line.startswith('game,score,lines,'):
            assembled = True  # row23-games-0-999.csv: game, score, lines, before 19/29/39
        if line.startswith('#') or line.startswith('game'):
            continue
        p = line.rstrip('\n').split(',')
        if assembled:
            out[int(p[0])] = dict(score=int(p[1]), lines=int(p[2]), tl=None, b19=int(p[3]),
                                  b29=int(p[4]), b39=int(p[5]))
            continue
        if len(p) < 16:
            continue
        out[int(p[0])] = dict(score=int(p[1]), lines=int(p[3]), tl=int(p[8]), b19=int(p[9]),
                              b29=int(p[10]), b39=int(p[11]))
    return out


def ms(x):
    """The mean of `x` and its standard error (pair-proxy.py uses it too)."""
    m=sum(x)/len(x); sd=math.sqrt(sum((y-m)**2 for y in x)/(len(x)-1)); return m, sd/math.sqrt(len(x))


def against_row27(files, keys, caps):
    """Pairs the games of `files` (runs of seed 1's games, each played as far as it goes)
    with row 27's whole games (`row27-games-0-999.csv`): for each (key, name) of `keys` the
    paired gain and its standard error, then the games each lost below each line count of
    `caps` (pair-seed1-to230.py and pair-seed1-to330.py print these)."""
    base = rows(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'row27-games-0-999.csv'))
    cand = {}
    for f in files:
        cand.update(rows(f))
    games = sorted(cand)
    for key, name in keys:
        m, se = ms([cand[g][key] - base[g][key] for g in games])
        print(f'{name}: {len(games)} games, {m:+,.0f} ± {se:,.0f} '
              f'(row 27 {sum(base[g][key] for g in games) / len(games):,.0f} on them)')
    for cap in caps:
        lost = [sum(s[g]['lines'] < cap for g in games) for s in (base, cand)]
        print(f'lost before {cap} lines: {lost[0]} -> {lost[1]}')


def main():
    a=sys.argv[1:]; i=a.index('--cand')
    base={}
    for f in a[1:i]: base.update(rows(f))
    cand={}; have=set(); ranges=[]
    for spec in a[i+1:]:
        parts=spec.split(':')
        d,f=parts[0],parts[1]
        files=sorted(x for x in os.listdir(d) if x.startswith('game-') and x.endswith('.txt'))
        have.update(int(x[5:11]) for x in files)
        played={int(files[k][5:11]): v for k, v in rows(f).items()}
        cand.update(played)
        if len(parts) > 2:
            lo,hi=(int(x) for x in parts[2].split('-'))
            if played:
                hi=min(hi, max(played))
            elif files:
                hi=min(hi, int(files[0][5:11]) - 1)
            ranges.append((lo,hi))
    games=sorted(base)
    if ranges:
        games=[g for g in games if any(lo <= g <= hi for lo, hi in ranges)]
    diffs=[];b39=[];nc=0
    for g in games:
        b=base[g]; c=cand.get(g)
        if c is None:
            # either no position (ended before) or not played yet
            continue
        nc+=1
        diffs.append(c['score']-b['score']); b39.append(c['b39']-b['b39'])
    # games ended before the save: in base, no file
    rng=[g for g in games if g in cand or g not in have]
    ended=[g for g in rng if g not in have]
    allg=diffs+[0]*len(ended)
    m,se=ms(allg)
    bm=sum(base[g]['score'] for g in rng)/len(rng); cm=bm+m
    print(f"games {len(allg)} (played {nc}, ended before save {len(ended)}): base {bm:,.0f} cand {cm:,.0f} diff {m:+,.0f} +- {se:,.0f}")
    m2,se2=ms(b39+[0]*len(ended)); print(f"before_39 diff {m2:+,.0f} +- {se2:,.0f}")
    def lost(rows,lo,hi): return sum(1 for r in rows if lo<=r['lines']<hi)
    br=[base[g] for g in rng]; cr=[cand.get(g,base[g]) for g in rng]
    for lo,hi in [(0,330),(330,340),(340,430),(430,10000)]:
        print(f"lines {lo}-{hi}: base {lost(br,lo,hi)} cand {lost(cr,lo,hi)}")
    print(f"lines base {sum(r['lines'] for r in br)/len(br):.1f} cand {sum(r['lines'] for r in cr)/len(cr):.1f}")


if __name__ == '__main__':
    main()
