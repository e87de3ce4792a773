"""The headline's figures for a list of per-game rows (pair.py's rows()): mean and its
standard error, percentiles (linear interpolation between ranks, as `nestris bench`),
the scores before levels 19, 29 and 39, lines and the Tetris rate where counted. The
assemble-row*.py scripts print them, and write_games() writes their per-game files."""
import math
import statistics


def figures(games):
    """The headline's figures of `games` (pair.py's rows()): n, mean, se, sd, the score
    percentiles `pct` (by fraction: 0.01 ... 0.99), `pre` (the means before levels 19 / 29
    / 39), `lines`, `lines_median`, `below` (the fractions below 130 / 230 / 330 lines),
    `capped` (games at 430 lines) and `tetris_rate` (None where not counted)."""
    s = sorted(g["score"] for g in games)
    n = len(s)
    m = sum(s) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in s) / (n - 1))

    def pct(q):
        r = q * (n - 1)
        lo = int(r)
        hi = min(n - 1, lo + 1)
        return round(s[lo] + (s[hi] - s[lo]) * (r - lo))

    lines = [g["lines"] for g in games]
    counted = all(g["tl"] is not None for g in games)
    return dict(
        n=n, mean=m, se=sd / math.sqrt(n), sd=sd,
        pct={q: pct(q) for q in (0.01, 0.05, 0.1, 0.5, 0.9, 0.99)},
        pre=[sum(g[k] for g in games) / n for k in ("b19", "b29", "b39")],
        lines=sum(lines) / n, lines_median=statistics.median(lines),
        below=[sum(1 for x in lines if x < c) / n for c in (130, 230, 330)],
        capped=sum(1 for x in lines if x >= 430),
        tetris_rate=sum(g["tl"] for g in games) / sum(lines) if counted else None,
    )


def report(games, name):
    f = figures(games)
    print(f"{name}: {f['n']} games, mean {f['mean']:,.0f} +- {f['se']:,.0f}, sd {f['sd']:,.0f}")
    print("  percentiles 1/5/10/50/90/99: " + " / ".join(f"{v:,}" for v in f["pct"].values()))
    print("  before level 19/29/39: " + " / ".join(f"{v:,.0f}" for v in f["pre"]))
    print(f"  lines {f['lines']:.1f} (median {f['lines_median']}), below 130/230/330: "
          + " / ".join(f"{b * 100:.1f}%" for b in f["below"])
          + f", at the cap {f['capped']}")
    if f["tetris_rate"] is not None:
        print(f"  Tetris rate {f['tetris_rate'] * 100:.1f}%")


def report_and_write(games, source, path, comment):
    """Prints the figures of games 0-499, 500-999 and all 1000 (`games` by number), then
    writes them to `path` one per line (score, lines, scores before levels 19 / 29 / 39 and
    where each game comes from, `source` by number) after the `comment` line."""
    report([games[g] for g in sorted(games) if g < 500], "games 0-499")
    report([games[g] for g in sorted(games) if g >= 500], "games 500-999")
    report([games[g] for g in sorted(games)], "all 1000")
    with open(path, "w") as out:
        out.write(f"# {comment}\n")
        out.write("game,score,lines,before_19,before_29,before_39,played\n")
        for g in sorted(games):
            v = games[g]
            out.write(f"{g},{v['score']},{v['lines']},{v['b19']},{v['b29']},{v['b39']},{source[g]}\n")


def played_on(games, source, runs, label):
    """Replaces each game of `games` (by number) that a run played on from row 23's
    positions at 326 lines with that run's game: `runs` names the runs' CSVs with {x} for
    the folder (0, 250, 500, 750); game k of a run is the k-th game-*.txt of p326-{x}/, its
    scores before levels 19 and 29 the base game's. `source` (by number) says `label`."""
    import os

    from pair import rows

    for x in ("0", "250", "500", "750"):
        files = sorted(f for f in os.listdir(f"p326-{x}") if f.startswith("game-"))
        for k, v in rows(runs.format(x=x)).items():
            g = int(files[k][5:11])
            games[g] = dict(v, b19=games[g]["b19"], b29=games[g]["b29"], tl=None)
            source[g] = label
