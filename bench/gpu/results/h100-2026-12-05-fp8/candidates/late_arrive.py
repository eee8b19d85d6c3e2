#!/usr/bin/env python3
"""Moves, in each key-block loop of a ping-pong attention kernel (.tir), the barrier arrives that
stand between the wait for S_j (warp_group_dot_wait, pendings = 1) and the wait for P V
(pendings = 0) to just before the latter, each with the memdesc_index line that names its
barrier. ptxas moves a wgmma wait up until an mbarrier arrive stops it: after the move the wait
for P V stays after the softmax (where ptxas keeps the arrive there; see ../NOTES.md).

    python3 late_arrive.py IN.tir OUT.tir
"""
import re
import sys


def is_wait(line, pendings):
    return "warp_group_dot_wait" in line and f"pendings = {pendings}" in line


def move_arrives(lines):
    out, moved, i = [], 0, 0
    while i < len(lines):
        out.append(lines[i])
        if not is_wait(lines[i], 1):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not is_wait(lines[j], 0):
            j += 1
        if j == len(lines):
            i += 1
            continue
        kept, late = [], []
        for line in lines[i + 1:j]:
            arrive = re.search(r"ttng\.arrive_barrier (%\w+)", line)
            if not arrive:
                kept.append(line)
                continue
            named = re.match(r"\s*" + re.escape(arrive.group(1)) + r" = ttg\.memdesc_index",
                             kept[-1]) if kept else None
            if named:
                late.append(kept.pop())
            late.append(line)
            moved += 1
        out += kept + late
        i = j
    return out, moved


def main():
    lines = open(sys.argv[1]).read().split("\n")
    out, moved = move_arrives(lines)
    open(sys.argv[2], "w").write("\n".join(out))
    print(f"{sys.argv[1]}: {moved} arrives moved")


if __name__ == "__main__":
    main()
