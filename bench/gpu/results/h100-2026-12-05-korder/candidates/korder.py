#!/usr/bin/env python3
"""Tile and K orders for the persistent TMA-store GEMMs, as edits of a kernel's text.

  python3 korder.py IN.tir OUT.tir NAME [reverse] [snake] [groups16]

reverse: the producer walks K backwards in every other wave (t / programs odd), so a wave starts
on the K slices the wave before it loaded last, which are still in L2. The consumers accumulate
whatever the ring holds, so only the producer changes.
snake: odd tile groups walk N from the right, so a wave that crosses into the next group keeps
the B columns it already has.
groups16: a kernel in groups of 8 M tiles (the fp8 ones: %eight) walks groups of 16.
The kernel's name becomes NAME. `snake_lines`, `wave_parity_lines` and `k_lines` write the edits
for any naming (coop_korder.py uses them for the cooperative kernel)."""
import re
import sys


def snake_lines(ind, p, pid_n, ing, gsize, group, tiles_n, one, zero):
    """pid_n for a tile: N from the left in even groups, from the right in odd ones (new values
    prefixed with p)."""
    return (f"{ind}{p}pid_n0 = arith.divsi {ing}, {gsize} : i32\n"
            f"{ind}{p}godd = arith.andi {group}, {one} : i32\n"
            f"{ind}{p}flip = arith.cmpi ne, {p}godd, {zero} : i32\n"
            f"{ind}{p}nlast = arith.subi {tiles_n}, {one} : i32\n"
            f"{ind}{p}pid_nr = arith.subi {p}nlast, {p}pid_n0 : i32\n"
            f"{ind}{pid_n} = arith.select {p}flip, {p}pid_nr, {p}pid_n0 : i32\n")


def wave_parity_lines(ind, nprog, nk, one, zero):
    """Before the producer's K loop: %backward in odd waves, and %klast."""
    return (f"{ind}%wave = arith.divsi %t, {nprog} : i32\n"
            f"{ind}%wodd = arith.andi %wave, {one} : i32\n"
            f"{ind}%backward = arith.cmpi ne, %wodd, {zero} : i32\n"
            f"{ind}%klast = arith.subi {nk}, {one} : i32\n")


def k_lines(ind, bk):
    """The producer's %k for step %i, backwards where %backward."""
    return (f"{ind}%irev = arith.subi %klast, %i : i32\n"
            f"{ind}%kstep = arith.select %backward, %irev, %i : i32\n"
            f"{ind}%k = arith.muli %kstep, {bk} : i32\n")


def main():
    src, dst, name, *opts = sys.argv[1:]
    text = open(src).read()
    text = re.sub(r"@(matmul_\w+)\(", "@" + name + "(", text, count=1)

    if "groups16" in opts:
        text, n = re.subn(r"%eight = arith.constant 8 : i32", "%eight = arith.constant 16 : i32",
                          text)
        assert n == 3, n

    if "snake" in opts:
        # in each partition: %pid_n = arith.divsi %ing, %gsize, after the %gwidth naming tiles_n
        def snake(m):
            group, tiles_n, between, ind = m.groups()
            return (f"%gwidth = arith.muli {group}, {tiles_n}{between}\n"
                    + snake_lines(ind, "%", "%pid_n", "%ing", "%gsize", "%group", tiles_n, "%one",
                                  "%z"))
        text, n = re.subn(r"(?s)%gwidth = arith.muli (%eight|%sixteen), (%\w+)(.*?)\n( +)"
                          r"%pid_n = arith.divsi %ing, %gsize : i32\n", snake, text)
        assert n == 3, n

    if "reverse" in opts:
        # the producer: its K loop runs over %p_nk
        loop = re.search(r"\n( +)scf.for %i = %z to %p_nk step %one : i32 \{\n", text)
        assert loop, "no producer K loop"
        head = wave_parity_lines(loop.group(1), "%p_nprog", "%p_nk", "%one", "%z")
        text = text[:loop.start() + 1] + head + text[loop.start() + 1:]
        text, n = re.subn(r"\n( +)%k = arith.muli %i, %bk : i32\n",
                          lambda m: "\n" + k_lines(m.group(1), "%bk"), text)
        assert n == 1, n

    open(dst, "w").write(text)


if __name__ == "__main__":
    main()
