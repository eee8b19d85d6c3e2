#!/usr/bin/env python3
"""Instruction counts of the loop body of each conversion kernel's SASS.

    python3 bench/gpu/sass_loop_counts.py DIR/*.sass > sass-loop-counts.txt

The whole-kernel counts (run.sh's sass-counts.txt) mix in what the kernel does outside its loop
(loading the tile, packing it, storing it); the cost model prices one conversion, so it is held
against the loop of Triton's round-trip kernel alone: src -> dst, add, dst -> src. A loop is a
backward branch; the body is the instructions from its target to the branch. Both SASS forms are
read: cuobjdump's ("/*0ea0*/ @P0 BRA 0x660 ;", targets by address) and Triton's own dump
("28:-:-:-:5 @P0 BRA LBB1;", targets by label). Where ptxas unrolled the loop, there are two:
the unrolled one and the remainder, which runs one iteration; the smallest loop is counted (and
marked "of N loops"). A kernel with no loop is reported as such.
"""
import re
import sys

OPS = ["SHFL", "PRMT", "SEL", "FSEL", "LOP3", "IADD3", "HADD2", "FADD", "IMAD", "LDS", "LDSM",
       "STS", "STSM", "BAR", "WARPSYNC"]
CUOBJ = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;")
TRITON = re.compile(r"^[-0-9a-fY]+:[-0-9a-fY:]+\s+(.*?)\s*;")
LABEL = re.compile(r"^(\w+):\s*$")


def instructions(lines):
    """(position, text) of each instruction and {label: position}."""
    out, labels = [], {}
    for line in lines:
        m = CUOBJ.match(line)
        if m:
            out.append((int(m.group(1), 16), m.group(2)))
            continue
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = len(out)
            continue
        m = TRITON.match(line)
        if m:
            out.append((len(out), m.group(1)))
    return out, labels


def opcode(text):
    words = text.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def loop_body(insns, labels):
    """The instructions of the smallest backward branch's loop and the number of loops; None
    where there is no loop."""
    loops = []
    for i, (pos, text) in enumerate(insns):
        if opcode(text) != "BRA":
            continue
        target = text.split()[-1]
        if target.startswith("0x"):
            start = int(target, 16)
            first = next((j for j, (p, _) in enumerate(insns) if p == start), None)
        else:
            first = labels.get(target)
        if first is not None and first < i:  # backward, not a branch to itself
            loops.append((first, i))
    if not loops:
        return None
    first, last = min(loops, key=lambda fl: fl[1] - fl[0])
    return insns[first:last + 1], len(loops)


def main(paths):
    for path in paths:
        with open(path) as f:
            insns, labels = instructions(f.readlines())
        found = loop_body(insns, labels)
        name = path.rsplit("/", 1)[-1]
        if found is None:
            print(f"{name:50} no loop")
            continue
        body, loops = found
        ops = [opcode(t) for _, t in body]
        counts = " ".join(f"{op} {ops.count(op):4d}" for op in OPS)
        note = f" (the smallest of {loops} loops)" if loops > 1 else ""
        print(f"{name:50} {counts} total {len(ops)}{note}")


if __name__ == "__main__":
    main(sys.argv[1:])
