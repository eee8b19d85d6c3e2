#!/usr/bin/env python3
"""Models the tile orders of the persistent causal attention kernels (docs/attention.md, "Tile
order for L2"), for the benchmark's shapes on 132 programs: how balanced the programs are (the
mean program's time over the last one's) and how many heads, and how many MB of their K and V,
the tiles running at once read (median and maximum over the run).

A tile of query block m costs m + 1 key blocks plus a fixed `--overhead` (in key blocks). The
persistent kernels assign tiles statically (program p takes its own list in order); the
non-persistent kernel's programs go to whichever SM frees first, in grid order. The orders:

  before   tile t: query block nblocks - 1 - t / heads of head t % heads (longest first)
  grouped  the same within groups of G heads of at most --budget MB of K and V (flash attention
           3's order), group after group
  paired   attention_ws_pp_persistent_paired_*_causal.tir: units in head order, folded within a
           head, program p taking units 2p and 2p + 1 of each round of 2P
"""
import argparse
import heapq

PROGRAMS = 132


def folded(u, nm):
    head, r = divmod(u, nm)
    return (r // 2 if r % 2 else nm - 1 - r // 2), head


def before(nm, heads):
    tiles = [(nm - 1 - t // heads, t % heads) for t in range(nm * heads)]
    return [tiles[p::PROGRAMS] for p in range(PROGRAMS)]


def grouped(nm, heads, g):
    tiles = []
    for t in range(nm * heads):
        grp, r = divmod(t, g * nm)
        gh = min(g, heads - grp * g)
        tiles.append((nm - 1 - r // gh, grp * g + r % gh))
    return [tiles[p::PROGRAMS] for p in range(PROGRAMS)]


def paired(nm, heads):
    # The kernels' arithmetic: nk units a program, the k-th 2p + (k & 1) of round k / 2, or p in
    # a partial last round of at most P units.
    tiles, np2 = nm * heads, 2 * PROGRAMS
    rounds, rest = divmod(tiles, np2)
    single = rest <= PROGRAMS
    out = []
    for p in range(PROGRAMS):
        extra = (p < rest) if single else (2 * p < rest) + (2 * p + 1 < rest)
        nk = 2 * rounds + extra
        tail = 2 * rounds if single else nk
        out.append([folded((k // 2) * np2 + (p if k >= tail else 2 * p + (k & 1)), nm)
                    for k in range(nk)])
    done = sorted(x for prog in out for x in prog)
    assert done == sorted((m, h) for h in range(heads) for m in range(nm)), "not a permutation"
    return out


def runs_static(progs, overhead):
    runs = []
    for prog in progs:
        t = 0.0
        for m, h in prog:
            runs.append((t, t + m + 1 + overhead, m, h))
            t += m + 1 + overhead
    return runs


def runs_dynamic(nm, heads, overhead):
    free = [(0.0, p) for p in range(PROGRAMS)]
    runs = []
    for h in range(heads):
        for x in range(nm):
            t, p = heapq.heappop(free)
            m = nm - 1 - x
            runs.append((t, t + m + 1 + overhead, m, h))
            heapq.heappush(free, (t + m + 1 + overhead, p))
    return runs


def measure(runs, d):
    last = max(t1 for _, t1, _, _ in runs)
    work = sum(t1 - t0 for t0, t1, _, _ in runs)
    balance = work / PROGRAMS / last
    runs.sort()
    block = 128 * d * 2 * 2 / 2**20  # MB of K and V per key block
    heads, mbs = [], []
    for i in range(1, 50):
        at = last * i / 50
        live = {}
        for t0, t1, m, h in runs:
            if t0 > at:
                break
            if t1 > at:
                live[h] = max(live.get(h, 0), m + 1)
        heads.append(len(live))
        mbs.append(sum(live.values()) * block)
    heads.sort()
    mbs.sort()
    return balance, heads[len(heads) // 2], heads[-1], mbs[len(mbs) // 2], mbs[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--overhead", type=float, default=1.0, help="per tile, in key blocks")
    ap.add_argument("--budget", type=float, nargs="*", default=[8, 16, 32],
                    help="MB of K and V a group of heads may hold (grouped order)")
    args = ap.parse_args()
    print("| d | n_ctx | heads | order | balance | heads running (median / max) "
          "| K and V MB (median / max) |")
    print("|---:|---:|---:|---|---:|---:|---:|")
    for d, shapes in ((128, ((1024, 4096), (4096, 256), (16384, 16))),
                      (64, ((1024, 8192), (4096, 512), (16384, 32)))):
        for n, heads in shapes:
            nm = n // 128
            rows = [("non-persistent", runs_dynamic(nm, heads, args.overhead)),
                    ("before", runs_static(before(nm, heads), args.overhead))]
            for mb in args.budget:
                g = max(1, int(mb * 2**20) // (n * d * 4))
                rows.append((f"grouped G={g}", runs_static(grouped(nm, heads, g), args.overhead)))
            rows.append(("paired", runs_static(paired(nm, heads), args.overhead)))
            for name, runs in rows:
                b, hm, hx, mm, mx = measure(runs, d)
                print(f"| {d} | {n} | {heads} | {name} | {b:.3f} | {hm} / {hx} | {mm:.1f} / {mx:.1f} |")


if __name__ == "__main__":
    main()
