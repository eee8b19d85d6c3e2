#!/usr/bin/env python3
"""korder.py's `reverse` and `snake` for examples/matmul_ws_persistent_tmastore.tir (the
cooperative kernel), whose regions name their values differently.

  python3 coop_korder.py IN.tir OUT.tir NAME"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from korder import k_lines, snake_lines, wave_parity_lines  # noqa: E402

src, dst, name = sys.argv[1:]
text = open(src).read().replace("@matmul_ws_persistent_tmastore(", f"@{name}(", 1)


def swap(old, new):
    global text
    assert text.count(old) == 1, old
    text = text.replace(old, new)


ind = " " * 8
swap(f"{ind}%pid_n = arith.divsi %ing, %gsize : i32\n",
     snake_lines(ind, "%", "%pid_n", "%ing", "%gsize", "%group", "%tiles_n", "%c1", "%c0"))
swap(f"{ind}%p_pid_n = arith.divsi %p_ing, %p_gsize : i32\n",
     snake_lines(ind, "%p_", "%p_pid_n", "%p_ing", "%p_gsize", "%p_group", "%ptn", "%one", "%z"))
loop = f"{ind}scf.for %i = %z to %pnk step %one : i32 {{\n"
swap(loop, wave_parity_lines(ind, "%pnprog", "%pnk", "%one", "%z") + loop)
swap("          %k = arith.muli %i, %sixtyfour : i32\n", k_lines(" " * 10, "%sixtyfour"))
open(dst, "w").write(text)
