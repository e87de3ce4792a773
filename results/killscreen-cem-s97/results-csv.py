# Gives t610-all a results.csv, so that `bench --continue t610-all` can play the tuner's positions
# (the default's runs on generations 2 and 3, README.md): the two saving runs' rows under the
# first one's header, with "save_positions_at":230 added to its options (both runs were stopped
# at their 230-line cap, where they saved). Usage, from this folder: python3 results-csv.py
import json
a = open('t610-to230-0.csv').read().split('\n', 1)
b = open('t610-to230-300.csv').read().split('\n', 2)
prefix = '# nestris bench '
opts = json.loads(a[0][len(prefix):])
opts['save_positions_at'] = 230
with open('t610-all/results.csv', 'w') as f:
    f.write(prefix + json.dumps(opts, separators=(',', ':')) + '\n' + a[1])
    if not a[1].endswith('\n'):
        f.write('\n')
    f.write(b[2])
