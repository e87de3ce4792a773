import csv, gzip, os, sys
# The boards of `bench --record-boards` (ks-boards.csv.gz here) as position files in pos/, levels 29-38.
os.makedirs('pos', exist_ok=True)
n = 0
for r in csv.DictReader(gzip.open('ks-boards.csv.gz', 'rt')):
    if r['piece'] == 'end' or not r['level'].isdigit(): continue
    lv = int(r['level'])
    if lv < 29 or lv > 38: continue
    b = r['board']; rows = [int(b[i*3:i*3+3], 16) for i in range(20)]
    out = [f"level {lv}", f"lines {r['lines']}", f"score {r['score']}", f"piece {r['current']}", f"next {r['next']}", "board"]
    for v in rows:
        out.append(''.join('#' if v >> x & 1 else '.' for x in range(10)))
    open(f"pos/{r['game']}-{int(r['piece']):04d}.txt", 'w').write('\n'.join(out) + '\n')
    n += 1
print(n)
