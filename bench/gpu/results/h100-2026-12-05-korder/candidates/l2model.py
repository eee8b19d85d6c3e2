#!/usr/bin/env python3
"""DRAM bytes a persistent 128x256-tile GEMM reads, by a model of L2 as one LRU cache.

  python3 l2model.py [M N K [PROGRAMS [CACHE_MB]]]   (default 4096 4096 4096 132 25)

The model: PROGRAMS programs walk the tiles in waves (tile t in wave t / PROGRAMS) and go through
K in step with one another, 64 at a time (A's 128 x 64 and B's 64 x 256 f16 slices: 16 and 32
KB). A slice is read from DRAM unless the LRU cache holds it. Tiles go in groups of G M tiles,
M first (the examples' order); `snake` makes odd groups walk N from the right; `reverse` makes
odd waves walk K backwards. With 25 MB it gives ncu's DRAM read of the cooperative kernel in
groups of 8, 16 and 32 (186.6, 147.9, 174.1 MB, H100) within 1 MB, and the reordered split
kernels' (128.2, 121.3 MB) within 4 %."""
import sys
from collections import OrderedDict


def tiles(tm, tn, group, snake):
    out, width = [], group * tn
    for t in range(tm * tn):
        g, within = divmod(t, width)
        first = g * group
        size = min(tm - first, group)
        n = within // size
        if snake and g % 2:
            n = tn - 1 - n
        out.append((first + within % size, n))
    return out


def dram_mb(order, steps, programs, cache_mb, reverse):
    cache, held, read = OrderedDict(), 0, 0
    for w in range(0, len(order), programs):
        wave = order[w:w + programs]
        backward = reverse and (w // programs) % 2 == 1
        for s in range(steps):
            k = steps - 1 - s if backward else s
            for m, n in wave:
                for key, size in ((("A", m, k), 16384), (("B", n, k), 32768)):
                    if key in cache:
                        cache.move_to_end(key)
                        continue
                    read += size
                    cache[key] = size
                    held += size
                    while held > cache_mb * 1e6:
                        held -= cache.popitem(last=False)[1]
    return read / 1e6


def main():
    args = [int(a) for a in sys.argv[1:]]
    M, N, K = args[:3] if len(args) >= 3 else (4096, 4096, 4096)
    programs = args[3] if len(args) > 3 else 132
    cache_mb = args[4] if len(args) > 4 else 25
    print(f"{M}x{N}x{K}, {programs} programs, {cache_mb} MB LRU: DRAM MB read")
    for group in (8, 16, 32):
        for snake in (False, True):
            order = tiles(M // 128, N // 256, group, snake)
            row = [dram_mb(order, K // 64, programs, cache_mb, r) for r in (False, True)]
            print(f"  groups of {group:2}{' snake' if snake else '      '}: "
                  f"{row[0]:7.1f}, with K reversed in odd waves {row[1]:7.1f}")


if __name__ == "__main__":
    main()
