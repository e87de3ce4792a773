"""Once all 1000 of row 29's headline games are in: swaps the README's headline table to row 29 (its left-hand column; row 26's column and note move to docs/experiments.md) and fills the ablation's row 29. Run from the repository's root: python3 results/pushdown/headline-swap.py [--write]; without --write it prints the figures."""
import math, os, re, statistics as st, sys
sys.path.insert(0, 'results/field-seed1'); sys.path.insert(0, 'results/fifth-ply'); sys.path.insert(0, 'results/pushdown')
from hist import add, hists, pct
from pair import rows
from report import figures
from summary import read
paths = [f'results/pushdown/row29-s1-{g}.csv' for g in (0, 500, 985)]
games, dec = {}, {}
for p in paths:
    games.update(rows(p))
    for h in hists(p).values(): add(dec, h)
sd_pts = {k: int(r['soft_drop']) for k, r in read(paths).items()}
F = figures([games[g] for g in sorted(games)])
n, m, se, sd = F['n'], F['mean'], F['se'], F['sd']
q = lambda p: F['pct'][p]
below = [b * 100 for b in F['below']]
cap = F['capped'] / n * 100
pre = F['pre']
tr = F['tetris_rate'] * 100
lines_mean, lines_median = F['lines'], F['lines_median']
sdm = st.mean(sd_pts.values()); sdse = st.stdev(sd_pts.values())/math.sqrt(n)
less = [g['score']-sd_pts[k] for k, g in sorted(games.items())]
lm = st.mean(less); lse = st.stdev(less)/math.sqrt(n)
med, p99 = pct(dec, 50), pct(dec, 99)
f = lambda x: f'{x:,.0f}'
fig = dict(n=n, mean=f(m), se=f(se), sd=f(sd), p1=f(q(.01)), p5=f(q(.05)), p10=f(q(.1)), p50=f(q(.5)), p90=f(q(.9)), p99=f(q(.99)),
           lines=f'{lines_mean:.1f}', lmed=f'{lines_median:.1f}', b130=f'{below[0]:.1f}%', b230=f'{below[1]:.1f}%', b330=f'{below[2]:.1f}%',
           cap=f'{cap:.1f}%', pre19=f(pre[0]), pre29=f(pre[1]), pre39=f(pre[2]), tr=f'{tr:.1f}%', sdm=f(sdm), sdse=f(sdse), less=f(lm), lessse=f(lse),
           med=f'{med:.2f}', p99ms=f'{p99:.1f}', gap=f(2426105-lm), gap19=f'{(657892-pre[0])/1000:.0f}', gap29=f'{(1293916-pre[1])/1000:.0f}', gap39=f'{(2038563-pre[2])/1000:.0f}',
           dec=f'{sum(dec.values()):,}')
for k, v in fig.items(): print(k, v)

if '--write' not in sys.argv:
    sys.exit(0)
R = open('README.md').read()
L = R.split('\n')
hi = next(i for i, l in enumerate(L) if l.startswith('| | nestris row 28 (the default until row 29)'))
end = hi
while L[end].startswith('|'): end += 1
def cells(l):
    return [c.strip() for c in re.split(r'(?<!\\)\|', l)[1:-1]]
new29 = {
    'mean score ± standard error': f"**{fig['mean']} ± {fig['se']}** (of which {fig['sdm']} soft-drop points: {fig['less']} ± {fig['lessse']} without them)",
    'standard deviation': fig['sd'],
    'score, 1st / 5th / 10th percentile': f"{fig['p1']} / {fig['p5']} / {fig['p10']}",
    'score, 50th / 90th / 99th percentile': f"{fig['p50']} / {fig['p90']} / {fig['p99']}",
    'mean lines (median)': f"{fig['lines']} ({fig['lmed']})",
    'games ending below 130 / 230 / 330 lines': f"{fig['b130']} / {fig['b230']} / **{fig['b330']}**",
    'games that reach the 430-line cap': fig['cap'],
    'mean score before level 19 / 29 / 39': f"**{fig['pre19']}** / {fig['pre29']} / {fig['pre39']}",
    'Tetris rate': fig['tr'],
    'decision time, median / p99 (one core)': f"{fig['med']} / {fig['p99ms']} ms over the whole games (`results/pushdown/summary.py`, from the runs' histograms: two runs side by side on the 2 cores, on a machine whose speed changed up to 2.7 times from hour to hour: 6.6-7.0 ms in its fast hours, 18-25 ms in its slow ones; the last 78 games by f98810d's build, the same decisions with fewer instructions); **21.1 ms** (median) alone on the machine in a slow hour, games 0-3 whole (\"Decision time\")",
    'wall time (2 cores)': "whole games, two runs side by side over four sessions, 35-50 s a game on a core (up to 160 s in the last session's slow hours): about 13 h",
}
out = ['| | nestris row 29 (the default) | nestris row 28 (the default until row 29) | nestris row 27 (the default before it) | BetaTetris hybrid (published) |',
       '|---|---:|---:|---:|---:|']
for l in L[hi+2:end]:
    c = cells(l)
    out.append('| ' + ' | '.join([c[0], new29[c[0]], c[1], c[2], c[4]]) + ' |')
L[hi:end] = out
R = '\n'.join(L)
a = R.index('**Row 29, the default since stop 76: its run is under way.**')
b = R.index('**Row 28 on all 1000 games: the left-hand nestris column.**')
para = f"""**Row 29 on all 1000 games: the left-hand nestris column.** Row 29 is row 28 with soft
drop after each piece's last move (`--pushdown`, "Row 29" in docs/experiments.md): the same
locks, and the game's soft-drop points on top. With the game's own picker its games are
other games than row 28's from the first soft drop on (the picker's generator steps every
frame, and the frames to each lock change), so they were played whole, two ranges side by
side over four sessions (`bench --format field --games 500 --first-game 0|500 --seed 1
--threads 1 --games-csv F --resume`, `results/pushdown/`; `summary.py` there prints the
table's figures). The last 78 games (476-499 and 946-999, games 985-999 in a third file)
were played by f98810d's build, which makes the same decisions with fewer instructions
("Decision time"), so that they finished within the session. All 1000: **{fig['mean']} ± {fig['se']}** a game, of which
**{fig['sdm']}** soft-drop points; below 230 / 330 lines {fig['b230']} / {fig['b330']};
{fig['cap']} at the 430-line cap; before level 19 / 29 / 39 {fig['pre19']} / {fig['pre29']} /
{fig['pre39']}; Tetris rate {fig['tr']}. Unpaired against row 28's 1000 (2,155,027 ± 9,186):
{m - 2155027:+,.0f} ± {math.hypot(se, 9186):,.0f}. On pieces that do not depend on the frames
the two play the same locks ("Row 29" in docs/experiments.md), so row 29's gain is its
{sdm / 1000:.1f} k of soft-drop points and the rest of the difference is the pieces. The mean is
short of the issue's 2.2 M. BetaTetris's game model, as we read its sources, has no Down
among a frame's inputs (`beta-tetris`, `tetris/game.h`: left, right, A and B) and scores
line clears only, so its 2,426,105 compares with row 29's mean less its soft-drop points,
{fig['less']} ± {fig['lessse']}: a gap of **{fig['gap']}** a game, {fig['gap19']} k before level
19, {fig['gap29']} k before 29, {fig['gap39']} k before 39 (the soft-drop points included in those).

"""
R = R[:a] + para + R[b:]
R = R.replace('**Row 28 on all 1000 games: the left-hand nestris column.**', '**Row 28 on all 1000 games: the middle nestris column.**')
R = R.replace('**Row 27 on all 1000 games: the middle nestris column.**', '**Row 27 on all 1000 games: the right-hand nestris column.**')
a = R.index('**Row 26 on all 1000 games: the right-hand nestris column.**')
b = R.index('The 1000-game figures of the defaults before row 26')
row26 = R[a:b]
R = R[:a] + R[b:]
R = R.replace('The 1000-game figures of the defaults before row 26 (rows 12-25)', 'The 1000-game figures of the defaults before row 27 (rows 12-26)')
open('README.md', 'w').write(R)
D = open('docs/experiments.md').read()
row26 = row26.replace(' in\ndocs/experiments.md', ' below').replace(' in docs/experiments.md', ' below')
row26 = row26.replace('**Row 26 on all 1000 games: the right-hand nestris column.**', "**Row 26 on all 1000 games (the table's right-hand column until row 29).**")
D = D.replace('## Earlier defaults on all 1000 games (rows 12-25)\n\n', '## Earlier defaults on all 1000 games (rows 12-26)\n\n' + row26)
D = D.replace('the 1000-game figures of the defaults before row 26.', 'the 1000-game figures of the defaults before row 27.')
D = D.replace('the notes on rows 26 to 29 beside them', 'the notes on rows 27 to 29 beside them')
open('docs/experiments.md', 'w').write(D)
R = open('README.md').read()
L = R.split('\n')
i = next(k for k, l in enumerate(L) if l.startswith('| 29 |'))
c = cells(L[i])
c[1] = re.sub(r' so far \(\d+ of 1000, "Row 29, the default since stop 76" above\)', f', all 1000 ("Row 29 on all 1000 games" above; unpaired against row 28\'s 1000: {m - 2155027:+,.0f} ± {f(math.hypot(se, 9186))})', c[1])
c[2] = f"{fig['mean']} ± {fig['se']} (all 1000, unpaired)"
c[3] = f"**+{fig['sdm']} ± {fig['sdse']}** (the soft-drop points of row 29's own games; the locks are row 28's)"
c[4], c[5], c[6] = fig['b230'], fig['b330'], fig['pre19']
c[7] = f"as row 28 (the same locks); {fig['tr']} over the whole games"
L[i] = '| ' + ' | '.join(c) + ' |'
open('README.md', 'w').write('\n'.join(L))
