#!/usr/bin/env python3
"""Our persistent GEMMs and cuBLAS timed by one harness in one process: the do_bench call that
vendor_bench.py times cuBLAS with (Triton's, warmup 50, rep 300, median; its L2 flush is torch's
zero_ of a 256 MB buffer), alternating, with IDLE_S seconds of idle before each timing. Until
this script our side was timed by linlayout_gpu_bench and cuBLAS by Python, in separate processes
with different idle histories; here both get the same flush, events, queueing and history.

Each kernel comes as PTX with its report: `linlayout compile X.tir -o X.ptx --report 2> X.report`
(X.report beside X.ptx). It must take the tensor maps of A, B and C, then K, ldc, M and N, as the
persistent examples/matmul_ws_persistent_tmastore.tir and matmul_ws_split*.tir do, with C in the
input type or in f32; or the tensor maps of A and B, a pointer to an f32 C of row stride ldc, then
K, ldc, M and N, as examples/matmul_ws_persistent.tir does; or, for e4m3 A and B, the tensor maps
of A and of B given N x K, C's tensor map (f16, bf16 or f32) or an f32 pointer, then K, ldc, M,
N and the two scales (1 here), as examples/matmul_fp8_ws_*.tir do. Its input type and C's type
come from the report (C's tensor map, or f32 where there is none). Parameters after those (the
stream-K kernel's workspace and tile counters) get one zeroed scratch buffer each, of SCRATCH_MB
(default 64) MB, shared by all sizes. It is loaded with the CUDA driver (ctypes) into torch's
context and launched on torch's current stream, one program per SM. A clustered kernel (its
report says "a program is a cluster of N CTAs") is launched by cuLaunchKernelEx in clusters of N
along x, as many whole clusters as fit at once (cuOccupancyMaxActiveClusters), at most one CTA per
SM. Its C is compared with cuBLAS's on the same inputs (torch.randn's, rounded to the input
type), the whole matrix, before it is timed. cuBLAS is torch.matmul for C in the input type,
torch.mm(..., out_dtype=torch.float32) for f32 C (torch 2.9 or later) and torch._scaled_mm
(cuBLASLt, scales 1) for e4m3 inputs; kernels are grouped by input and output type, each group
timed beside its own cuBLAS side.

  python3 bench/gpu/gemm_same_harness.py OUT.json LABEL=X.ptx [LABEL=Y.ptx ...]
    e.g. tmastore=tmastore_f16.ptx tmastore=tmastore_bf16.ptx split=split_f16.ptx
         f32out=matmul_ws_persistent.ptx

Environment: SIZES (default "4096 8192"; an entry is N for N^3 or MxNxK), ROUNDS (default 2),
IDLE_S (default 3), FLUSHES ("zero", do_bench's flush, by default; "memset" flushes by
cuMemsetD8Async of the same buffer as linlayout_gpu_bench does; "zero memset" times both).
PROFILE=1 also traces 30 flushed runs of each side after IDLE_S of idle with torch.profiler (the
kernels' own durations, the gap from the flush's end to the kernel's start, the events' time), at
the first size. ENERGY=1 also launches each side back to back for about a second after IDLE_S of
idle and reads NVML's energy counter (millijoules per call, mean watts) and, every 50 ms, the SM
clock and the reasons NVML gives for holding it back. Prints one line per figure and writes the
rows to OUT.json."""
import ctypes, json, os, re, statistics, sys, tempfile, time
import torch
from triton import runtime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vendor_bench  # noqa: E402  (its timed(): the do_bench call cuBLAS's figures come from)
from cudadrv import check, driver, load_function  # noqa: E402

IDLE_S = float(os.environ.get("IDLE_S", "3"))

cuda = driver()


ELEMENT = {torch.float8_e4m3fn: 0, torch.float16: 6, torch.float32: 7,
           torch.bfloat16: 9}  # CUtensorMapDataType (e4m3 as bytes)


SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}  # CUtensorMapSwizzle by swizzle width in bytes


class LaunchAttribute(ctypes.Structure):  # cuda.h's CUlaunchAttribute: an id, a 64-byte union
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_uint32 * 16)]


class LaunchConfig(ctypes.Structure):  # cuda.h's CUlaunchConfig
    _fields_ = [("grid", ctypes.c_uint32 * 3), ("block", ctypes.c_uint32 * 3),
                ("shared", ctypes.c_uint32), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(LaunchAttribute)), ("num_attrs", ctypes.c_uint32)]


CLUSTER_DIMENSION = 4  # CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION


def cluster_config(programs, threads, shared, cluster):
    """A launch of `programs` CTAs of `threads` in clusters of `cluster` along x."""
    attr = LaunchAttribute()
    attr.id = CLUSTER_DIMENSION
    attr.value[0], attr.value[1], attr.value[2] = cluster, 1, 1
    config = LaunchConfig()
    config.grid[:] = [programs, 1, 1]
    config.block[:] = [threads, 1, 1]
    config.shared = shared
    config.attrs = ctypes.pointer(attr)
    config.num_attrs = 1
    config.keep = attr
    return config


def encode(t, box_rows, box_cols, swizzle_bytes):
    """A 2-D tiled tensor map of row-major `t` with a box of box_rows x box_cols and the given
    swizzle, no L2 promotion, as runtime/lib/TensorMap.cpp encodes them."""
    raw = ctypes.create_string_buffer(128 + 64)  # a CUtensorMap is 128 bytes, 64-byte aligned
    m = (ctypes.c_uint8 * 128).from_address((ctypes.addressof(raw) + 63) & ~63)
    m.raw = raw
    rows, cols = t.shape
    dims = (ctypes.c_uint64 * 2)(cols, rows)
    strides = (ctypes.c_uint64 * 1)(cols * t.element_size())
    box = (ctypes.c_uint32 * 2)(box_cols, box_rows)
    ones = (ctypes.c_uint32 * 2)(1, 1)
    check(cuda.cuTensorMapEncodeTiled(ctypes.byref(m), ELEMENT[t.dtype], 2,
                                      ctypes.c_void_p(t.data_ptr()), dims, strides, box, ones,
                                      0, SWIZZLE[swizzle_bytes], 0, 0), "cuTensorMapEncodeTiled")
    return m


def found(pattern, text, what):
    m = re.search(pattern, text)
    if not m:
        sys.exit(f"gemm_same_harness: no {what} in {text[:80]!r}...")
    return m.group(1)


class Ours:
    """A kernel from `linlayout compile` PTX and its --report (boxes, dynamic shared memory)."""

    def __init__(self, ptx_path):
        ptx = open(ptx_path).read()
        report = open(re.sub(r"\.ptx$", "", ptx_path) + ".report").read()
        self.name = found(r"\.visible \.entry (\w+)\(", ptx, "kernel entry")
        self.shared = int(found(r"(\d+) bytes of dynamic shared memory", report, "shared size"))
        self.threads = int(found(r"(\d+) threads per block", report, "block size"))
        self.params = int(found(r"(\d+) parameters", report, "parameter count"))
        cluster = re.search(r"a program is a cluster of (\d+) CTAs", report)
        self.cluster = int(cluster.group(1)) if cluster else 1
        maps = re.findall(r"box (\d+)x(\d+) of (\w+), (\d+)-byte swizzle", report)
        self.boxes = [(int(r), int(c), int(sw)) for r, c, _, sw in maps]
        types = [{"f8E4M3FN": "e4m3"}.get(t, t) for _, _, t, _ in maps]
        pair = len(types) in (2, 3) and types[1] == types[0]  # A and B, then C's map if any
        halves = pair and types[0] in ("f16", "bf16") and types[2:] in ([], [types[0]], ["f32"])
        fp8 = pair and types[0] == "e4m3" and types[2:] in ([], ["f16"], ["bf16"], ["f32"]) \
            and self.params == 9
        if not (halves or fp8):
            sys.exit(f"gemm_same_harness: {ptx_path} is not a GEMM on f16/bf16 A and B tensor "
                     "maps with C a tensor map of their type or of f32, or an f32 pointer, nor "
                     "one on e4m3 A and B (N x K) with C a tensor map or an f32 pointer and "
                     "two scales")
        self.dtype = types[0]
        self.out = types[2] if len(types) == 3 else "f32"  # C's type
        self.scales = 2 if fp8 else 0  # f32 parameters after N
        self.module, self.fn = load_function(ptx, self.name, self.shared)

    def launcher(self, a, b, c):
        """A function that launches C = A B on torch's current stream (for e4m3, b is B given
        N x K)."""
        (m, k), n = a.shape, c.shape[1]
        maps = [encode(t, *box) for t, box in zip((a, b, c), self.boxes)]
        if len(maps) == 2:  # C by pointer, row stride ldc
            maps.append(ctypes.c_void_p(c.data_ptr()))
        ints = [ctypes.c_int32(x) for x in (k, n, m, n)]  # K, ldc, M, N
        scales = [ctypes.c_float(1.0) for _ in range(self.scales)]
        scratch = [ctypes.c_void_p(scratch_buffer(i).data_ptr())
                   for i in range(self.params - 7 - self.scales)]
        args = maps + ints + scales + scratch
        params = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.byref(x), ctypes.c_void_p)
                                                 for x in args])
        # One program per SM (the sizes timed here have more tiles than SMs).
        programs = torch.cuda.get_device_properties(0).multi_processor_count
        if self.cluster == 1:
            def launch():
                stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
                check(cuda.cuLaunchKernel(self.fn, programs, 1, 1, self.threads, 1, 1,
                                          self.shared, stream, params, None), "cuLaunchKernel")
            launch.keep = (maps, ints, scales, scratch, params)
            return launch
        # Whole clusters, as many as fit at once (a cluster's CTAs share a GPC).
        clusters = ctypes.c_int()
        check(cuda.cuOccupancyMaxActiveClusters(
            ctypes.byref(clusters), self.fn,
            ctypes.byref(cluster_config(self.cluster, self.threads, self.shared, self.cluster))),
            "cuOccupancyMaxActiveClusters")
        programs = min(programs // self.cluster, clusters.value) * self.cluster
        config = cluster_config(programs, self.threads, self.shared, self.cluster)
        print(f"{self.name}: {programs} CTAs in clusters of {self.cluster}", flush=True)

        def launch_ex():
            config.stream = torch.cuda.current_stream().cuda_stream
            check(cuda.cuLaunchKernelEx(ctypes.byref(config), self.fn, params, None),
                  "cuLaunchKernelEx")
        launch_ex.keep = (maps, ints, scales, scratch, params, config)
        return launch_ex


_scratch = []


def scratch_buffer(i):
    """The i-th zeroed scratch buffer (made once: a kernel's counters must start at zero and
    come back to it)."""
    while len(_scratch) <= i:
        mb = int(os.environ.get("SCRATCH_MB", "64"))
        _scratch.append(torch.zeros(mb << 20, device="cuda", dtype=torch.uint8))
    return _scratch[i]


def memset_flush(cache):
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    check(cuda.cuMemsetD8Async(ctypes.c_uint64(cache.data_ptr()), 0,
                               ctypes.c_size_t(cache.numel() * cache.element_size()), stream),
          "cuMemsetD8Async")


def timed(fn, flush):
    driver = runtime.driver.active
    zero = driver.clear_cache
    if flush == "memset":
        driver.clear_cache = memset_flush
    try:
        return vendor_bench.timed(fn)
    finally:
        driver.clear_cache = zero


def flushed_kernels(events):
    """From a trace's kernel and memset events: the duration of each kernel that follows a flush
    (a memset or fill of more than 10 µs; not the 1 µs memset torch.matmul issues first), the gap
    from the flush's end to its start, and the flush's duration, in microseconds."""
    is_flush = lambda e: (e.get("cat") == "gpu_memset" or "fill" in e["name"].lower()) \
        and e["dur"] > 10
    kern, gap, fl, last = [], [], [], None
    for e in sorted(events, key=lambda e: e["ts"]):
        if is_flush(e):
            last = e
        elif e.get("cat") == "kernel" and last is not None:
            kern.append(e["dur"])
            gap.append(e["ts"] - (last["ts"] + last["dur"]))
            fl.append(last["dur"])
            last = None
    return kern, gap, fl


def profile(fns, flushes, reps=30):
    """Each side's flushed sequence (flush, event, launch, event) under torch.profiler: per side
    the median kernel duration, the median gap between the flush's end and the kernel's start
    (for cuBLAS it holds the 1 µs memset torch.matmul issues first), the flush's duration and the
    events' time, in microseconds."""
    cache = runtime.driver.active.get_empty_cache_for_benchmark()
    out = {}
    for side, fn in fns.items():
        for flush in flushes:
            clear = memset_flush if flush == "memset" else lambda c: c.zero_()
            starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
            stops = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
            fn()
            torch.cuda.synchronize()
            time.sleep(IDLE_S)
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as p:
                for i in range(reps):
                    clear(cache)
                    starts[i].record()
                    fn()
                    stops[i].record()
                torch.cuda.synchronize()
            with tempfile.NamedTemporaryFile(suffix=".json") as trace:
                p.export_chrome_trace(trace.name)
                events = [e for e in json.load(open(trace.name))["traceEvents"]
                          if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memset")]
            kern, gap, fl = flushed_kernels(events)
            events_ms = [s.elapsed_time(t) for s, t in zip(starts, stops)]
            names = sorted({e["name"][:60] for e in events})
            out[f"{side} {flush}"] = {
                "kernel_us": statistics.median(kern) if kern else None,
                "gap_us": statistics.median(gap) if gap else None,
                "flush_us": statistics.median(fl) if fl else None,
                "events_us": 1e3 * statistics.median(events_ms),
                "first5_kernel_us": kern[:5], "matched": len(kern), "names": names}
    return out


def energy(fns, seconds=1.0):
    """Each side launched back to back (no flush) for about `seconds` after an idle spell: its
    TFLOP/s-equivalent time per call and the energy per call from NVML's counter (millijoules)."""
    nvml = ctypes.CDLL("libnvidia-ml.so.1")
    check(nvml.nvmlInit_v2(), "nvmlInit_v2")
    dev = ctypes.c_void_p()
    check(nvml.nvmlDeviceGetHandleByIndex_v2(torch.cuda.current_device(), ctypes.byref(dev)),
          "nvmlDeviceGetHandleByIndex_v2")

    def millijoules():
        mj = ctypes.c_ulonglong()
        check(nvml.nvmlDeviceGetTotalEnergyConsumption(dev, ctypes.byref(mj)),
              "nvmlDeviceGetTotalEnergyConsumption")
        return mj.value

    out = {}
    for side, fn in fns.items():
        fn()
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(10):
            fn()
        stop.record()
        torch.cuda.synchronize()
        calls = max(10, int(seconds * 1e3 / (start.elapsed_time(stop) / 10)))
        time.sleep(IDLE_S)
        e0 = millijoules()
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        # While the queue drains: the SM clock (MHz) and why it is held back (NVML's clock
        # event reasons, OR-ed; 0x4 software power cap, 0x20 software thermal, 0x40 hardware
        # slowdown), every 50 ms.
        mhz, reasons = [], 0
        while not stop.query():
            clock, why = ctypes.c_uint(), ctypes.c_ulonglong()
            check(nvml.nvmlDeviceGetClockInfo(dev, 1, ctypes.byref(clock)),
                  "nvmlDeviceGetClockInfo")
            check(nvml.nvmlDeviceGetCurrentClocksEventReasons(dev, ctypes.byref(why)),
                  "nvmlDeviceGetCurrentClocksEventReasons")
            mhz.append(clock.value)
            reasons |= why.value
            time.sleep(0.05)
        torch.cuda.synchronize()
        e1 = millijoules()
        ms = start.elapsed_time(stop)
        out[side] = {"calls": calls, "ms_per_call": ms / calls, "mj_per_call": (e1 - e0) / calls,
                     "watts": (e1 - e0) / ms, "sm_mhz": mhz, "clock_event_reasons": reasons}
    return out


def shape(text):
    """M, N, K from a SIZES entry: "4096" (a cube) or "4096x4096x1024"."""
    dims = [int(d) for d in text.split("x")]
    if len(dims) not in (1, 3):
        sys.exit(f"gemm_same_harness: size {text!r} is neither N nor MxNxK")
    return tuple(dims * 3) if len(dims) == 1 else tuple(dims)


def main():
    out_path = sys.argv[1]
    sizes = [shape(s) for s in os.environ.get("SIZES", "4096 8192").split()]
    rounds = int(os.environ.get("ROUNDS", "2"))
    flushes = os.environ.get("FLUSHES", "zero").split()
    torch.zeros(1, device="cuda")
    variants = {}  # (input type, C's type) -> [(label, kernel)]
    for arg in sys.argv[2:]:
        label, path = arg.split("=", 1)
        ours = Ours(path)
        variants.setdefault((ours.dtype, ours.out), []).append((label, ours))
    types = {"e4m3": torch.float8_e4m3fn, "f16": torch.float16, "bf16": torch.bfloat16,
             "f32": torch.float32}
    rows = []
    for (iname, oname), kernels in variants.items():
        dt, ot = types[iname], types[oname]
        dname = iname if ot == dt else f"{iname}->{oname}"  # the group's rows and lines
        for m, n, k in sizes:
            flop = 2.0 * m * n * k
            size = f"{n}^3" if m == n == k else f"{m}x{n}x{k}"
            if dt == torch.float8_e4m3fn:  # ours take B as N x K, _scaled_mm column-major
                a = torch.randn(m, k, device="cuda").to(dt)
                b = torch.randn(n, k, device="cuda").to(dt)
                one = torch.ones((), device="cuda")
                cublas = lambda: torch._scaled_mm(a, b.t(), one, one, out_dtype=ot)
            else:
                a = torch.randn(m, k, device="cuda", dtype=dt)
                b = torch.randn(k, n, device="cuda", dtype=dt)
                if ot == dt:
                    cublas = lambda: torch.matmul(a, b)
                else:
                    cublas = lambda: torch.mm(a, b, out_dtype=ot)
            ref = cublas().double()
            sides, rel, outs = {"cublas": cublas}, {}, []
            for label, ours in kernels:
                c = torch.empty(m, n, device="cuda", dtype=ot)
                outs.append(c)
                sides[label] = ours.launcher(a, b, c)
                sides[label]()
                torch.cuda.synchronize()
                rel[label] = ((c.double() - ref).norm() / ref.norm()).item()
                print(f"{dname} {size} {label}: {ours.name}, rel. error against cuBLAS "
                      f"{rel[label]:.2e}", flush=True)
            for r in range(1, rounds + 1):
                for flush in flushes:
                    for side, fn in sides.items():
                        time.sleep(IDLE_S)
                        ms = timed(fn, flush)
                        row = {"dtype": dname, "n": n, "m": m, "k": k, "round": r,
                               "flush": flush, "side": side, "ms": ms, "tflops": flop / ms / 1e9}
                        if side in rel:
                            row["rel_err_vs_cublas"] = rel[side]
                        rows.append(row)
                        print(f"{dname} {size} round {r} flush={flush:6s} {side:22s} "
                              f"{row['tflops']:7.1f} TFLOP/s", flush=True)
            if os.environ.get("PROFILE") == "1" and (m, n, k) == sizes[0]:
                prof = profile(sides, flushes)
                us = lambda x: "-" if x is None else f"{x:.1f}"
                for key, v in prof.items():
                    print(f"{dname} {size} profiled {key:28s} kernel {us(v['kernel_us'])} us, gap "
                          f"{us(v['gap_us'])} us, flush {us(v['flush_us'])} us, events "
                          f"{us(v['events_us'])} us ({v['matched']} matched)", flush=True)
                rows.append({"dtype": dname, "n": n, "m": m, "k": k, "profile": prof})
            if os.environ.get("ENERGY") == "1":
                en = energy(sides)
                for side, v in en.items():
                    print(f"{dname} {size} back to back {side:22s} "
                          f"{flop / v['ms_per_call'] / 1e9:7.1f} TFLOP/s, "
                          f"{v['mj_per_call']:.1f} mJ per call, {v['watts']:.0f} W, SM "
                          f"{statistics.median(v['sm_mhz']) if v['sm_mhz'] else 0:.0f} MHz "
                          f"(reasons {v['clock_event_reasons']:#x})", flush=True)
                rows.append({"dtype": dname, "n": n, "m": m, "k": k, "energy": en})
            del a, b, ref, outs
    json.dump(rows, open(out_path, "w"), indent=1)


if __name__ == "__main__":
    main()
