#!/usr/bin/env python3
"""Adds time stamps to a persistent GEMM's PTX (from `linlayout compile`): %globaltimer and
%clock64 when each CTA starts, when each warp reaches a `ret`, and after each C store a
consumer warp group issues (`cp.async.bulk.commit_group`), written to a global array `ll_t` of
1 KB per CTA that ctatimes.py reads after each launch. Per CTA (byte offsets): 0 start
(globaltimer, thread 0), 8 %smid, 16 the count of stores recorded, 24 start (clock64); 32 + 8w
warp w's end (globaltimer), 128 + 8w its end (clock64); 256 + 8i the i-th store's globaltimer,
448 + 8i its clock64, 640 + 8i the warp group that issued it (at most 24 stores).

  python3 stamp.py IN.ptx OUT.ptx [EVERY]   (and copies IN.report beside OUT.ptx)

EVERY (default 1): stamp only every EVERY-th `commit_group` in the text, the last of each run
of EVERY (4 for a kernel that stores a tile's C in four chunks, each its own bulk group)."""
import re, shutil, sys

BASE = """\tmov.u32 %llr1, %ctaid.x;
\tmul.wide.u32 %lld1, %llr1, 1024;
\tmov.u64 %lld2, ll_t;
\tadd.u64 %lld2, %lld2, %lld1;
"""

START = """\tmov.u64 %lld0, %globaltimer;
\tmov.u64 %lld7, %clock64;
\tmov.u32 %llr0, %tid.x;
\tsetp.eq.u32 %llp0, %llr0, 0;
""" + BASE + """\t@%llp0 st.global.u64 [%lld2], %lld0;
\t@%llp0 st.global.u64 [%lld2+24], %lld7;
\tmov.u32 %llr2, %smid;
\tcvt.u64.u32 %lld3, %llr2;
\t@%llp0 st.global.u64 [%lld2+8], %lld3;
"""

STORE = """\tmov.u64 %lld4, %globaltimer;
\tmov.u64 %lld7, %clock64;
""" + BASE + """\tatom.global.add.u32 %llr3, [%lld2+16], 1;
\tmin.u32 %llr3, %llr3, 23;
\tmul.wide.u32 %lld5, %llr3, 8;
\tadd.u64 %lld5, %lld2, %lld5;
\tst.global.u64 [%lld5+256], %lld4;
\tst.global.u64 [%lld5+448], %lld7;
\tmov.u32 %llr4, %tid.x;
\tshr.u32 %llr4, %llr4, 7;
\tcvt.u64.u32 %lld6, %llr4;
\tst.global.u64 [%lld5+640], %lld6;
"""

END = """\tmov.u64 %lld4, %globaltimer;
\tmov.u64 %lld7, %clock64;
""" + BASE + """\tmov.u32 %llr4, %tid.x;
\tshr.u32 %llr5, %llr4, 5;
\tand.b32 %llr4, %llr4, 31;
\tsetp.eq.u32 %llp1, %llr4, 0;
\tmul.wide.u32 %lld5, %llr5, 8;
\tadd.u64 %lld5, %lld2, %lld5;
\t@%llp1 st.global.u64 [%lld5+32], %lld4;
\t@%llp1 st.global.u64 [%lld5+128], %lld7;
"""

DECLS = "\t.reg .b64 %lld<8>;\n\t.reg .b32 %llr<6>;\n\t.reg .pred %llp<2>;\n"


def stamp(ptx, every=1):
    entries = len(re.findall(r"^\.visible \.entry", ptx, re.M))
    if entries != 1:
        sys.exit(f"stamp: expected one kernel, found {entries}")
    ptx = re.sub(r"^(\.visible \.entry)", ".global .align 8 .b8 ll_t[1048576];\n\n\\1", ptx,
                 count=1, flags=re.M)
    out, in_entry, started, stores, ends, sites = [], False, False, 0, 0, 0
    for line in ptx.splitlines(keepends=True):
        s = line.strip()
        if not in_entry and s == "{" and out and out[-1].startswith(".maxnreg"):
            in_entry = True
            out += [line, DECLS]
            continue
        if in_entry and not started and s and not s.startswith(".reg"):
            out.append(START)
            started = True
        if s == "ret;":
            out.append(END)
            ends += 1
        out.append(line)
        if s == "cp.async.bulk.commit_group;":
            sites += 1
            if sites % every == 0:
                out.append(STORE)
                stores += 1
    if not (started and stores and ends):
        sys.exit(f"stamp: start {started}, {stores} stores, {ends} returns")
    return "".join(out), stores, ends


if __name__ == "__main__":
    src, dst = sys.argv[1:3]
    text, stores, ends = stamp(open(src).read(), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    open(dst, "w").write(text)
    shutil.copy(re.sub(r"\.ptx$", ".report", src), re.sub(r"\.ptx$", ".report", dst))
    print(f"stamp: {dst}: {stores} store sites, {ends} returns")
