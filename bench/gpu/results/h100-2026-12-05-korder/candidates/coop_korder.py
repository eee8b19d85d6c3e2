#!/usr/bin/env python3
"""korder.py's `reverse` and `snake` for examples/matmul_ws_persistent_tmastore.tir (the
cooperative kernel), whose regions name their values differently.

  python3 coop_korder.py IN.tir OUT.tir NAME"""
import sys

src, dst, name = sys.argv[1:]
text = open(src).read().replace("@matmul_ws_persistent_tmastore(", f"@{name}(", 1)


def swap(old, new):
    global text
    assert text.count(old) == 1, old
    text = text.replace(old, new)


def snake(ind, p, pid_n, ing, gsize, group, tiles_n, one, zero):
    """Odd tile groups walk N from the right."""
    return (f"{ind}{p}pid_n0 = arith.divsi {ing}, {gsize} : i32\n"
            f"{ind}{p}godd = arith.andi {group}, {one} : i32\n"
            f"{ind}{p}flip = arith.cmpi ne, {p}godd, {zero} : i32\n"
            f"{ind}{p}nlast = arith.subi {tiles_n}, {one} : i32\n"
            f"{ind}{p}pid_nr = arith.subi {p}nlast, {p}pid_n0 : i32\n"
            f"{ind}{pid_n} = arith.select {p}flip, {p}pid_nr, {p}pid_n0 : i32\n")


ind = " " * 8
swap(f"{ind}%pid_n = arith.divsi %ing, %gsize : i32\n",
     snake(ind, "%", "%pid_n", "%ing", "%gsize", "%group", "%tiles_n", "%c1", "%c0"))
swap(f"{ind}%p_pid_n = arith.divsi %p_ing, %p_gsize : i32\n",
     snake(ind, "%p_", "%p_pid_n", "%p_ing", "%p_gsize", "%p_group", "%ptn", "%one", "%z"))
# the producer walks K backwards in odd waves
swap(f"{ind}scf.for %i = %z to %pnk step %one : i32 {{\n",
     f"{ind}%wave = arith.divsi %t, %pnprog : i32\n"
     f"{ind}%wodd = arith.andi %wave, %one : i32\n"
     f"{ind}%backward = arith.cmpi ne, %wodd, %z : i32\n"
     f"{ind}%klast = arith.subi %pnk, %one : i32\n"
     f"{ind}scf.for %i = %z to %pnk step %one : i32 {{\n")
swap("          %k = arith.muli %i, %sixtyfour : i32\n",
     "          %irev = arith.subi %klast, %i : i32\n"
     "          %kstep = arith.select %backward, %irev, %i : i32\n"
     "          %k = arith.muli %kstep, %sixtyfour : i32\n")
open(dst, "w").write(text)
