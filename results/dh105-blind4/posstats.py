#!/usr/bin/env python3
"""Mean tallest column, filled cells and well-column height of saved positions (bench --save-positions folders).

Usage: posstats.py FOLDER..."""
import sys,glob,statistics as st
def stats(folder):
    T=[];C=[];R=[]
    for f in sorted(glob.glob(folder+'/game-*.txt')):
        L=open(f).read().split('\n')
        i=L.index('board'); rows=[l for l in L[i+1:i+21]]
        h=[0]*10
        for r,l in enumerate(rows):
            for c,ch in enumerate(l[:10]):
                if ch=='#' and h[c]==0: h[c]=20-r
        T.append(max(h)); C.append(sum(l.count('#') for l in rows)); R.append(h[9])
    return len(T), st.mean(T), st.mean(C), st.mean(R)
for f in sys.argv[1:]: print(f, stats(f))
