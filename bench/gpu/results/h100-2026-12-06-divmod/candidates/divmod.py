#!/usr/bin/env python3
"""The split GEMMs' consumers without an integer division per tile, as an edit of a kernel's text.

  python3 divmod.py IN.tir OUT.tir [NAME]

A consumer warp group computes its tile's (M, N) only for its C store, which one elected thread
issues; the compiler sinks the computation there, so that thread runs two signed divisions by
runtime values (t / gwidth, then the place in the group / gsize) while its warp group waits for
it at the next tile's first wgmma. Here t's group and place in the group (t / gwidth,
t % gwidth) are carried through the tile loop and stepped by nprog's quotient and remainder
(divided once, before the loop), and a whole group of 16 M tiles splits the place by a mask and
a shift; only a last, partial group divides. The tiles and their order do not change.
NAME, if given, renames the kernel."""
import re
import sys

HEAD = re.compile(
    r"(?P<i>[ ]*)%steps = scf\.for %t = (?P<first>%\w+) to (?P<tiles>%\w+) step (?P<nprog>%\w+) "
    r"iter_args\(%base = %z\) -> \(i32\) : i32 \{\n"
    r"(?P<j>[ ]*)%gwidth = arith\.muli (?P<g>%\w+), (?P<tn>%\w+) : i32\n"
    r"[ ]*%group = arith\.divsi %t, %gwidth : i32\n"
    r"(?P<mid>[ ]*%first_m = .*\n[ ]*%left_m = .*\n[ ]*%gsize = .*\n)"
    r"[ ]*%ing = arith\.remsi %t, %gwidth : i32\n"
    r"[ ]*%inm = arith\.remsi %ing, %gsize : i32\n"
    r"(?P<pidm>[ ]*%pid_m = .*\n)"
    r"(?P<comment>[ ]*//.*\n)"
    r"[ ]*%pid_n0 = arith\.divsi %ing, %gsize : i32\n")


def head(m):
    i, j, g = m["i"], m["j"], m["g"]
    return (
        f"{i}// t walks by nprog: its group (t / gwidth) and place in it (t % gwidth) are carried\n"
        f"{i}// and stepped by nprog's quotient and remainder, so no tile divides\n"
        f"{i}%gwidth = arith.muli {g}, {m['tn']} : i32\n"
        f"{i}%dgroup = arith.divsi {m['nprog']}, %gwidth : i32\n"
        f"{i}%ding = arith.remsi {m['nprog']}, %gwidth : i32\n"
        f"{i}%group0 = arith.divsi {m['first']}, %gwidth : i32\n"
        f"{i}%ing0 = arith.remsi {m['first']}, %gwidth : i32\n"
        f"{i}%gmask = arith.constant 15 : i32\n"
        f"{i}%gshift = arith.constant 4 : i32\n"
        f"{i}%steps:3 = scf.for %t = {m['first']} to {m['tiles']} step {m['nprog']} "
        f"iter_args(%base = %z, %group = %group0, %ing = %ing0) -> (i32, i32, i32) : i32 {{\n"
        f"{m['mid']}"
        f"{j}// a whole group of 16 M tiles splits the place by a mask and a shift\n"
        f"{j}%whole = arith.cmpi eq, %gsize, {g} : i32\n"
        f"{j}%place:2 = scf.if %whole -> (i32, i32) {{\n"
        f"{j}  %inm_w = arith.andi %ing, %gmask : i32\n"
        f"{j}  %pid_n0_w = arith.shrsi %ing, %gshift : i32\n"
        f"{j}  scf.yield %inm_w, %pid_n0_w : i32, i32\n"
        f"{j}}} else {{\n"
        f"{j}  %inm_p = arith.remsi %ing, %gsize : i32\n"
        f"{j}  %pid_n0_p = arith.divsi %ing, %gsize : i32\n"
        f"{j}  scf.yield %inm_p, %pid_n0_p : i32, i32\n"
        f"{j}}}\n"
        f"{m['pidm'].replace('%inm', '%place#0')}"
        f"{m['comment']}")


TAIL = re.compile(r"(?P<j>[ ]*)scf\.yield %next : i32\n")


def tail(m):
    j = m["j"]
    return (f"{j}%ing1 = arith.addi %ing, %ding : i32\n"
            f"{j}%group1 = arith.addi %group, %dgroup : i32\n"
            f"{j}%wrap = arith.cmpi sge, %ing1, %gwidth : i32\n"
            f"{j}%ing1w = arith.subi %ing1, %gwidth : i32\n"
            f"{j}%ing2 = arith.select %wrap, %ing1w, %ing1 : i32\n"
            f"{j}%group1w = arith.addi %group1, %one : i32\n"
            f"{j}%group2 = arith.select %wrap, %group1w, %group1 : i32\n"
            f"{j}scf.yield %next, %group2, %ing2 : i32, i32, i32\n")


def main():
    src, dst, *name = sys.argv[1:]
    text = open(src).read()
    if name:
        text = re.sub(r"@(matmul_\w+)\(", "@" + name[0] + "(", text, count=1)
    out, rest, n = "", text, 0
    while (m := HEAD.search(rest)):
        t = TAIL.search(rest, m.end())
        body = re.sub(r"%pid_n0\b", "%place#1", rest[m.end():t.start()])
        out += rest[:m.start()] + head(m) + body + tail(t)
        rest = rest[t.end():]
        n += 1
    assert n == 2, f"{n} consumer loops"
    text = out + rest
    open(dst, "w").write(text)


if __name__ == "__main__":
    main()
