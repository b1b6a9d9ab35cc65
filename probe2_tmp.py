from agents import load_agent
from agents.cube import *
from bg_env import Position
td=load_agent('td'); g=load_agent('gnubg')
def pos(me, opp):
    a=[0]*26; b=[0]*26
    for k,v in me.items(): a[k]=v
    for k,v in opp.items(): b[k]=v
    a[0]=15-sum(a); b[0]=15-sum(b)
    return Position(tuple(a),tuple(b))
cands = {
 'co_nog1': pos({1:2,2:2,3:2,4:2,5:2,6:2,8:3}, {25:1,1:2,2:2}),
 'co_nog2': pos({1:2,2:2,3:2,4:2,5:2,6:2,8:3}, {25:1,1:3,2:3,3:2}),
 'co_nog3': pos({1:2,2:2,3:2,4:2,5:2,6:2,8:1}, {25:1,1:3,2:3,3:3,4:2}),
 'r1': pos({6:4,5:3,4:3,3:2,2:2,1:1}, {6:4,5:3,4:3,3:3,2:2,7:0, 9:0,10:0}),
 'r2': pos({6:3,5:3,4:3,3:2,2:2,1:2}, {6:3,5:3,4:3,3:2,2:2,1:1,7:1}),
 'r3': pos({6:3,5:3,4:3,3:2,2:2,1:2}, {6:3,5:3,4:3,3:2,2:2,1:0,8:2}),
 'r4': pos({6:3,5:3,4:3,3:2,2:2,1:2}, {6:3,5:3,4:3,3:2,2:2,7:1,8:1}),
 'r5': pos({6:3,5:3,4:3,3:2,2:2,1:2}, {6:3,5:3,4:3,3:2,2:2,9:1,8:1}),
}
for n,P in cands.items():
    P.validate()
    for a in (td,g):
        pr=a.probabilities(P); v=money_verdict(pr,0.68); vj=money_verdict(pr,0.68,jacoby=True)
        print(n, P.position_id(), P.pips(), type(a).__name__, pr.round(3), v.kind, vj.kind, round(v.no_double,3), round(v.double_take,3))
