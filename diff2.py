import sys, re, subprocess, collections
def load(f, byfn=False):
    out = subprocess.run(["callgrind_annotate", "--threshold=100", f], capture_output=True, text=True).stdout
    objs = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)\[(.*)\]\s*$", line)
        if m:
            n = int(m.group(1).replace(",", "")); obj = m.group(3).split("/")[-1]
            if "luajit" in obj: obj = "luajit.so"
            fn = m.group(2).split(":")[-1].strip()
            key = (obj + " " + fn) if byfn and obj != "???" else obj
            objs[key] += n
    return objs
# args: base_small base_big ours_small ours_big games_diff
bs, bb, os_, ob = (load(f, True) for f in sys.argv[1:5]); g = int(sys.argv[5])
base = {k: (bb[k]-bs[k])/g for k in set(bb)|set(bs)}
ours = {k: (ob[k]-os_[k])/g for k in set(ob)|set(os_)}
print("per game total", round(sum(base.values())), round(sum(ours.values())))
for k in sorted(set(base)|set(ours), key=lambda k: -abs(ours.get(k,0)-base.get(k,0)))[:40]:
    print(f"{k[:90]:90s} {base.get(k,0):>10,.0f} {ours.get(k,0):>10,.0f} {ours.get(k,0)-base.get(k,0):>+10,.0f}")
