"""Measurement-only PTX edit: the 6 barrier inits without a bar.sync and a fence between each two
(one fence after the last, one bar.sync), the 6 invals at the end without barriers between."""
import sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
start = next(i for i, l in enumerate(lines) if "mbarrier.init" in l)
setmax = next(i for i, l in enumerate(lines) if "shr.u32 \t%r84, %r3, 2;" in l)
syncs = [i for i in range(start, setmax) if lines[i].strip() == "bar.sync \t0;"]
fences = [i for i in range(start, setmax) if "fence.mbarrier_init" in lines[i]]
assert len(syncs) == 6 and len(fences) == 6, (syncs, fences)
drop = set(syncs[:-1]) | set(fences[:-1])
inval = [i for i, l in enumerate(lines) if "mbarrier.inval" in l]
assert len(inval) == 6
between = [i for i in range(inval[0], inval[-1]) if lines[i].strip() == "barrier.sync \t1, 256;"]
assert len(between) == 5, between
drop |= set(between)
open(dst, "w").write("\n".join(l for i, l in enumerate(lines) if i not in drop))
print(f"{dst}: dropped {len(drop)} lines")
