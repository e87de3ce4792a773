# Fitness of a bench run on t610-all (the tuner's): points from 230 lines, less 350,000 for a game lost before 330;
# a game with no position in t610-all (13 and 43, which died before 230 lines) is passed over. Usage: python3 fit.py RUN.csv
# (from the folder holding t610-all).
import csv,os,sys
lines=[l for l in open(sys.argv[1]) if not l.startswith('#')]
tot=[]
for row in csv.DictReader(lines):
    path='t610-all/game-%06d.txt'%int(row['game'])
    if not os.path.exists(path): continue
    txt=open(path).read()
    s0=int([l for l in txt.splitlines() if l.startswith('score')][0].split()[1])
    tot.append(int(row['score'])-s0-(350000 if int(row['lines'])<330 else 0))
import statistics as st
print(len(tot), round(sum(tot)/len(tot)), round(st.stdev(tot)/len(tot)**.5), 'topouts', sum(1 for l in lines[1:] if int(l.split(',')[3])<330))
