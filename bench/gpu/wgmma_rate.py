#!/usr/bin/env python3
"""The tensor cores' rate for the wgmma shapes our GEMMs issue, without copies or epilogues: is
a warp group's 128x128 tile as two m64n128k16 per K slice ("pairs", the ping-pong and 256x128
kernels) slower than one m64n256k16 per K slice on a 64x256 tile (the cooperative kernel), and
does the operands' major order matter? (It is not, and it does not: docs/performance.md, "wgmma
alone".)

Each case is a PTX kernel written here: one CTA per SM (dynamic shared memory keeps others out),
its warp groups each issuing ITERS K steps of 64 (4 K slices) on 128-byte-swizzled tiles in
shared memory, as our kernels do: wgmma.fence, the step's wgmmas, commit, wait until one group
is in flight. The operands' contents are whatever shared memory holds (the rate does not depend
on them). In the "+flood" cases one more warp stores to shared memory as fast as it can until
the warp groups are done, a probe of how much of shared memory's bandwidth the wgmmas leave.
Timed with CUDA events around a launch, the best of REPS; prints per case TFLOP/s, FLOP per SM
cycle (CTA 0's clock; 4096 is an H100's or H200's dense f16 peak) and the flood's bytes per
cycle, and writes JSON rows to argv[1].

  python3 bench/gpu/wgmma_rate.py OUT.json            (on the GPU machine)
  python3 bench/gpu/wgmma_rate.py --ptx CASE          (prints a case's PTX, here)

Environment: ITERS (default 4096), REPS (default 5), CASES (default: all, space-separated)."""
import ctypes, json, os, sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cudadrv import check, driver, load_function  # noqa: E402

ITERS = int(os.environ.get("ITERS", "4096"))
REPS = int(os.environ.get("REPS", "5"))


@dataclass
class Case:
    name: str
    wgs: int  # warp groups issuing wgmmas
    n: int  # 256: one m64n256k16 per K slice on a 64-row tile; 128: two m64n128k16 (128 rows)
    a_mn_major: bool = False  # A stored M-major (trans-a 1) instead of K-major
    b_k_major: bool = False  # B stored K-major (trans-b 0) instead of N-major
    slice_major: bool = False  # pairs: both row halves of a K slice back to back
    flood: bool = False  # one more warp stores to shared memory as fast as it can meanwhile

    @property
    def rows(self):  # of the warp group's tile
        return 64 if self.n == 256 else 128


CASES = [
    Case("coop_n256", 2, 256),
    Case("pairs", 2, 128),
    Case("pairs_slice_major", 2, 128, slice_major=True),
    Case("pairs_bK", 2, 128, b_k_major=True),
    Case("pairs_aM_bK", 2, 128, a_mn_major=True, b_k_major=True),
    Case("one_wg_n256", 1, 256),
    Case("one_wg_pairs", 1, 128),
    Case("one_wg_pairs_bK", 1, 128, b_k_major=True),
    Case("one_wg_pairs_aM_bK", 1, 128, a_mn_major=True, b_k_major=True),
    Case("coop_n256+flood", 2, 256, flood=True),
    Case("coop_n256_bK+flood", 2, 256, b_k_major=True, flood=True),
    Case("pairs+flood", 2, 128, flood=True),
    Case("pairs_slice_major+flood", 2, 128, slice_major=True, flood=True),
    Case("pairs_bK_slice_major+flood", 2, 128, b_k_major=True, slice_major=True, flood=True),
    Case("pairs_aM_bK_slice_major+flood", 2, 128, a_mn_major=True, b_k_major=True,
         slice_major=True, flood=True),
    Case("one_wg_n256+flood", 1, 256, flood=True),
    Case("one_wg_pairs+flood", 1, 128, flood=True),
    Case("one_wg_pairs_aM_bK_slice_major+flood", 1, 128, a_mn_major=True, b_k_major=True,
         slice_major=True, flood=True),
]
FLOOD_AT = 96 * 1024  # the flood's 4 KB of shared memory, past the operands
FLAG_AT = FLOOD_AT + 4096  # counts the warp groups done

SWIZZLE_128B = 1 << 62
ATOM = 8192  # a 128-byte-swizzled atom of 64 rows of 128 bytes (64 f16 by 64)


def desc_bits(lbo, sbo):
    return SWIZZLE_128B | ((lbo >> 4) & 0x3FFF) << 16 | ((sbo >> 4) & 0x3FFF) << 32


def operand(mn, mn_major):
    """(bytes, descriptor bits, byte step per K slice of 16, byte offset of 64 more mn) of a
    64-deep tile of `mn` f16 rows or columns in 128-byte-swizzled atoms."""
    if mn_major:  # 64 k rows of 128 bytes per 64 mn; atoms side by side along mn
        return mn * 128, desc_bits(ATOM if mn > 64 else 0, 1024), 16 * 128, ATOM
    return mn * 128, desc_bits(16, 1024), 32, 64 * 128  # mn rows of 128 bytes (64 k)


def ptx(c):
    a_bytes, a_bits, a_step, a_half = operand(c.rows, c.a_mn_major)
    _, b_bits, b_step, _ = operand(c.n, not c.b_k_major)
    acc = 128  # f32 per thread either way: 64 x 256 or 128 x 128 per warp group
    per_wgmma = acc if c.n == 256 else acc // 2
    ta, tb = int(c.a_mn_major), int(not c.b_k_major)
    lines = [".version 8.0", ".target sm_90a", ".address_size 64", "",
             ".extern .shared .align 1024 .b8 smem[];", "",
             ".visible .entry wgmma_rate(.param .u64 out, .param .u32 iters)", "{",
             "  .reg .pred p, more;", "  .reg .b32 t, wg, it, base, abase, bbase, n, f, fa;",
             "  .reg .b64 adesc, bdesc, a, b, o, c0, c1, cnt;", f"  .reg .f32 d<{acc}>;",
             "  .reg .f32 s;"]
    lines += [f"  mov.f32 d{i}, 0f00000000;" for i in range(acc)]
    lines += ["  mov.u32 t, %tid.x;", "  shr.u32 wg, t, 7;", "  mov.u32 base, smem;",
              f"  add.u32 fa, base, {FLAG_AT};", "  setp.ne.u32 p, t, 0;",
              "  @!p st.volatile.shared.u32 [fa], 0;", "  bar.sync 0;", "  mov.u64 c0, %clock64;",
              f"  setp.ge.u32 p, wg, {c.wgs};", "  @p bra FLOOD;",
              # each warp group its own A; B shared, after both A tiles
              f"  mad.lo.u32 abase, wg, {a_bytes}, base;",
              f"  add.u32 bbase, base, {a_bytes * 2};",
              "  shr.u32 abase, abase, 4;", "  and.b32 abase, abase, 16383;",
              "  shr.u32 bbase, bbase, 4;", "  and.b32 bbase, bbase, 16383;",
              "  cvt.u64.u32 adesc, abase;", f"  or.b64 adesc, adesc, {a_bits};",
              "  cvt.u64.u32 bdesc, bbase;", f"  or.b64 bdesc, bdesc, {b_bits};",
              "  ld.param.u32 n, [iters];", "  mov.u32 it, 0;", "  setp.ne.u32 p, t, t;",
              "LOOP:", "  wgmma.fence.sync.aligned;"]

    def wgmma(half, k):
        a_off = (half * a_half + k * a_step) >> 4
        b_off = (k * b_step) >> 4
        regs = ", ".join(f"d{half * per_wgmma + i}" for i in range(per_wgmma))
        return [f"  add.s64 a, adesc, {a_off};", f"  add.s64 b, bdesc, {b_off};",
                f"  wgmma.mma_async.sync.aligned.m64n{c.n}k16.f32.f16.f16 {{{regs}}}, a, b, p, "
                f"1, 1, {ta}, {tb};"]

    halves = 1 if c.n == 256 else 2
    order = ([(h, k) for k in range(4) for h in range(halves)] if c.slice_major
             else [(h, k) for h in range(halves) for k in range(4)])
    for h, k in order:
        lines += wgmma(h, k)
    lines += ["  wgmma.commit_group.sync.aligned;", "  wgmma.wait_group.sync.aligned 1;",
              "  setp.eq.u32 p, t, t;", "  add.u32 it, it, 1;", "  setp.lt.u32 more, it, n;",
              "  @more bra LOOP;", "  wgmma.wait_group.sync.aligned 0;",
              "  and.b32 f, t, 127;", "  setp.eq.u32 p, f, 0;", "  @p red.shared.add.u32 [fa], 1;",
              "  mov.u64 c1, %clock64;", "  sub.s64 c1, c1, c0;", "  mov.f32 s, d0;"]
    lines += [f"  add.f32 s, s, d{i};" for i in range(1, acc)]
    # out: f32 per wgmma thread (keeps the sums), then CTA 0's cycles, flood bytes and cycles
    lines += ["  ld.param.u64 o, [out];", "  cvt.u64.u32 b, t;", "  shl.b64 b, b, 2;",
              "  add.s64 b, o, b;", "  st.global.f32 [b], s;", "  mov.u32 f, %ctaid.x;",
              "  or.b32 f, f, t;", "  setp.ne.u32 p, f, 0;", "  @!p st.global.u64 [o+2048], c1;",
              "  ret;", "FLOOD:", "  mov.u64 cnt, 0;", "  and.b32 f, t, 31;", "  shl.b32 f, f, 4;",
              f"  add.u32 n, base, {FLOOD_AT};",
              "  add.u32 n, n, f;", "FLOODLOOP:"]
    lines += [f"  st.shared.v4.b32 [n+{j * 512}], {{t, t, t, t}};" for j in range(8)]
    lines += ["  add.u64 cnt, cnt, 4096;", "  ld.volatile.shared.u32 f, [fa];",
              f"  setp.lt.u32 p, f, {c.wgs};", "  @p bra FLOODLOOP;", "  mov.u64 c1, %clock64;",
              "  sub.s64 c1, c1, c0;", "  mov.u32 f, %ctaid.x;", "  and.b32 it, t, 31;",
              "  or.b32 f, f, it;", "  setp.ne.u32 p, f, 0;", "  ld.param.u64 o, [out];",
              "  @!p st.global.u64 [o+2056], cnt;", "  @!p st.global.u64 [o+2064], c1;", "  ret;",
              "}"]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--ptx":
        sys.stdout.write(ptx(next(c for c in CASES if c.name == sys.argv[2])))
        return 0
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wanted = os.environ.get("CASES", "").split()
    cuda = driver()
    check(cuda.cuInit(0), "cuInit")
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    check(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    sms, clock = ctypes.c_int(), ctypes.c_int()
    check(cuda.cuDeviceGetAttribute(ctypes.byref(sms), 16, dev), "multiprocessor count")
    check(cuda.cuDeviceGetAttribute(ctypes.byref(clock), 13, dev), "clock rate")  # kHz
    out = ctypes.c_uint64()
    check(cuda.cuMemAlloc_v2(ctypes.byref(out), ctypes.c_size_t(4096)), "cuMemAlloc")
    start, stop = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuEventCreate(ctypes.byref(start), 0), "cuEventCreate")
    check(cuda.cuEventCreate(ctypes.byref(stop), 0), "cuEventCreate")
    shared = 160 * 1024  # one CTA per SM
    rows = []
    for c in CASES:
        if wanted and c.name not in wanted:
            continue
        module, fn = load_function(ptx(c), "wgmma_rate", shared)
        args = [out, ctypes.c_uint32(ITERS)]
        params = (ctypes.c_void_p * 2)(*[ctypes.cast(ctypes.byref(x), ctypes.c_void_p)
                                         for x in args])
        best = None
        for _ in range(REPS + 1):  # the first launch warms up
            check(cuda.cuEventRecord(start, None), "cuEventRecord")
            check(cuda.cuLaunchKernel(fn, sms.value, 1, 1, 128 * c.wgs + 32 * c.flood, 1, 1,
                                      shared, None, params, None), "cuLaunchKernel")
            check(cuda.cuEventRecord(stop, None), "cuEventRecord")
            check(cuda.cuEventSynchronize(stop), "cuEventSynchronize")
            ms = ctypes.c_float()
            check(cuda.cuEventElapsedTime(ctypes.byref(ms), start, stop), "cuEventElapsedTime")
            best = ms.value if best is None or ms.value < best else best
        flop = 2 * 64 * 256 * 64 * c.wgs * ITERS * sms.value
        stats = (ctypes.c_uint64 * 3)()
        check(cuda.cuMemcpyDtoH_v2(stats, ctypes.c_uint64(out.value + 2048),
                                   ctypes.c_size_t(24)), "cuMemcpyDtoH")
        cycles, flood_bytes, flood_cycles = stats
        # Per SM and cycle of CTA 0's own clock: wgmma FLOP (4096 is an H100's or H200's dense
        # f16 peak) and the flood's bytes stored.
        row = {"case": c.name, "warp_groups": c.wgs, "n": c.n, "ms": best,
               "tflops": flop / best / 1e9, "cta0_cycles": cycles,
               "flop_per_cycle": flop / sms.value / cycles}
        if c.flood:
            row["flood_bytes_per_cycle"] = flood_bytes / flood_cycles
        rows.append(row)
        extra = (f", flood {row['flood_bytes_per_cycle']:5.1f} B/cycle" if c.flood else "")
        print(f"{c.name:38s} {row['tflops']:7.1f} TFLOP/s  ({best:.3f} ms; "
              f"{row['flop_per_cycle']:6.0f} FLOP/cycle{extra})", flush=True)
        check(cuda.cuModuleUnload(module), "cuModuleUnload")
    with open(sys.argv[1], "w") as f:
        json.dump({"sms": sms.value, "max_clock_khz": clock.value, "iters": ITERS, "rows": rows},
                  f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
