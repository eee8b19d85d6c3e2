#!/usr/bin/env python3
"""Tile and K orders for the persistent TMA-store GEMMs, as edits of a kernel's text.

  python3 korder.py IN.tir OUT.tir NAME [reverse] [snake] [groups16]

reverse: the producer walks K backwards in every other wave (t / programs odd), so a wave starts
on the K slices the wave before it loaded last, which are still in L2. The consumers accumulate
whatever the ring holds, so only the producer changes.
snake: odd tile groups walk N from the right, so a wave that crosses into the next group keeps
the B columns it already has.
groups16: a kernel in groups of 8 M tiles (the fp8 ones: %eight) walks groups of 16.
The kernel's name becomes NAME."""
import re
import sys

src, dst, name, *opts = sys.argv[1:]
text = open(src).read()
text = re.sub(r"@(matmul_\w+)\(", "@" + name + "(", text, count=1)

if "groups16" in opts:
    text, n = re.subn(r"%eight = arith.constant 8 : i32", "%eight = arith.constant 16 : i32", text)
    assert n == 3, n

if "snake" in opts:
    # in each partition: %pid_n = arith.divsi %ing, %gsize, after the %gwidth that names tiles_n
    def snake(m):
        group, tiles_n, between, ind = m.group(1), m.group(2), m.group(3), m.group(4)
        return (f"%gwidth = arith.muli {group}, {tiles_n}{between}\n"
                f"{ind}%pid_n0 = arith.divsi %ing, %gsize : i32\n"
                f"{ind}%godd = arith.andi %group, %one : i32\n"
                f"{ind}%flip = arith.cmpi ne, %godd, %z : i32\n"
                f"{ind}%nlast = arith.subi {tiles_n}, %one : i32\n"
                f"{ind}%pid_nr = arith.subi %nlast, %pid_n0 : i32\n"
                f"{ind}%pid_n = arith.select %flip, %pid_nr, %pid_n0 : i32\n")
    text, n = re.subn(r"(?s)%gwidth = arith.muli (%eight|%sixteen), (%\w+)(.*?)\n( +)"
                      r"%pid_n = arith.divsi %ing, %gsize : i32\n", snake, text)
    assert n == 3, n

if "reverse" in opts:
    # the producer: its K loop runs over %p_nk
    m = re.search(r"\n( +)scf.for %i = %z to %p_nk step %one : i32 \{\n", text)
    assert m, "no producer K loop"
    ind = m.group(1)
    head = (f"\n{ind}%wave = arith.divsi %t, %p_nprog : i32\n"
            f"{ind}%wodd = arith.andi %wave, %one : i32\n"
            f"{ind}%backward = arith.cmpi ne, %wodd, %z : i32\n"
            f"{ind}%klast = arith.subi %p_nk, %one : i32")
    text = text[:m.start()] + head + text[m.start():]
    text, n = re.subn(r"\n( +)%k = arith.muli %i, %bk : i32\n",
                      lambda m: (f"\n{m.group(1)}%irev = arith.subi %klast, %i : i32\n"
                                 f"{m.group(1)}%kstep = arith.select %backward, %irev, %i : i32\n"
                                 f"{m.group(1)}%k = arith.muli %kstep, %bk : i32\n"), text)
    assert n == 1, n

open(dst, "w").write(text)
