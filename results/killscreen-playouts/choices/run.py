import json, os, subprocess, sys
BIN = os.environ.get('BIN', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'target', 'release', 'nestris'))
# usage: run.py NAME STEP [best options...]: the AI's choice at every STEP-th position, into NAME.jsonl (resumable)
name, step, opts = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
files = sorted(os.listdir('pos'))[::step]
done = set()
if os.path.exists(name + '.jsonl'):
    done = {json.loads(l)['pos'] for l in open(name + '.jsonl')}
with open(name + '.jsonl', 'a') as out:
    for f in files:
        if f in done: continue
        r = subprocess.run([BIN, 'best', '--position', 'pos/' + f, '--json', '--top', '200', '--double-killscreen'] + opts, capture_output=True, text=True)
        if r.returncode != 0:
            print(f, r.stderr[:200], file=sys.stderr); continue
        d = json.loads(r.stdout)
        ch = [(p['orientation'], p['x'], p['y']) for p in d['placements'] if p['ai_choice']]
        out.write(json.dumps({'pos': f, 'choice': ch}) + '\n'); out.flush()
