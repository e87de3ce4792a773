import json, sys
def load(n): return {d['pos']: tuple(map(tuple, d['choice'])) for d in map(json.loads, open(n + '.jsonl'))}
names = sys.argv[1:]
L = {n: load(n) for n in names}
for i, a in enumerate(names):
    for b in names[i+1:]:
        ks = sorted(set(L[a]) & set(L[b]))
        same = sum(L[a][k] == L[b][k] for k in ks)
        print(f"{a} vs {b}: {same}/{len(ks)} agree ({100*same/len(ks):.1f}%)")
