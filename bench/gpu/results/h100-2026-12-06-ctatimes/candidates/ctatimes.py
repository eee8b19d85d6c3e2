#!/usr/bin/env python3
"""When each CTA of a persistent GEMM starts, stores each tile and ends, read from the time
stamps stamp.py adds, beside the launch's event time and cuBLAS's, one flushed launch at a
time (each side after torch's zero_ of do_bench's 256 MB buffer, as gemm_same_harness.py
times them). Prints, over LAUNCHES launches, medians of: the event times and their ratio; the
span from the first CTA's start to the last CTA's end (globaltimer) and what the event time
holds beyond it; the spread of the CTAs' starts; the ends of the CTAs with most and fewest
tiles; the SM clock (clock64 over globaltimer); each tile's cycles; and what a scheduler that
hands each tile to the first free CTA would make of the same CTAs' starts and tile times.

  python3 ctatimes.py OUT.json STAMPED.ptx   (STAMPED.report beside it; SIZE, LAUNCHES)"""
import ctypes, json, os, statistics, sys
import torch
from triton import runtime

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
import gemm_same_harness as harness  # noqa: E402
from cudadrv import check, driver  # noqa: E402

CTA_BYTES = 1024
med = statistics.median


def records(raw, ctas):
    """Per CTA: start and end (globaltimer ns, clock64), SM, stores [(ns, cycles, group)]."""
    words = (ctypes.c_uint64 * (len(raw) // 8)).from_buffer_copy(raw)
    out = []
    for i in range(ctas):
        w = words[i * CTA_BYTES // 8:(i + 1) * CTA_BYTES // 8]
        warps = [j for j in range(12) if w[4 + j]]
        n = min(w[2] & 0xffffffff, 24)
        out.append({"start_ns": w[0], "sm": w[1], "start_clk": w[3],
                    "end_ns": max(w[4 + j] for j in warps),
                    "end_clk": max(w[16 + j] for j in warps),
                    "stores": sorted((w[32 + s], w[56 + s], w[80 + s]) for s in range(n))})
    return out


def by_group(c):
    """A CTA's stores by the warp group that issued them: {group: [(ns, cycles), ...]}."""
    groups = {}
    for ns, clk, g in c["stores"]:
        groups.setdefault(g, []).append((ns, clk))
    return groups


def first_group(c):
    """The stores of the warp group that stored first (one per tile)."""
    return by_group(c)[c["stores"][0][2]]


def schedule(ctas, tiles):
    """(static, greedy) end of the last CTA, ns after the first start: each CTA starts at its
    start, spends its own first-store time on its first tile and its mean later tile time on
    each further one (its end keeps its own tail after the last store); static gives it the
    tiles it had, greedy hands each of `tiles` tiles to the CTA that is free first."""
    model = []
    for c in ctas:
        t = [ns for ns, _ in first_group(c)]
        if len(t) < 2:
            return None
        later = (t[-1] - t[0]) / (len(t) - 1)
        model.append((c["start_ns"], t[0] - c["start_ns"] - later, later, c["end_ns"] - t[-1],
                      len(t)))
    static = max(s + p + n * d + e for s, p, d, e, n in model)
    free = [s + p for s, p, d, e, n in model]
    count = [0] * len(model)
    for _ in range(tiles):
        i = min(range(len(free)), key=free.__getitem__)
        free[i] += model[i][2]
        count[i] += 1
    greedy = max(f + m[3] for f, m, n in zip(free, model, count) if n)
    first = min(m[0] for m in model)
    return static - first, greedy - first


def summary(launch, ctas, tiles):
    first = min(c["start_ns"] for c in ctas)
    last = max(c["end_ns"] for c in ctas)
    counts = [len(first_group(c)) for c in ctas]
    most, fewest = max(counts), min(counts)
    end = lambda n: [c["end_ns"] - first for c, k in zip(ctas, counts) if k == n]
    mhz = [(c["end_clk"] - c["start_clk"]) / (c["end_ns"] - c["start_ns"]) * 1e3 for c in ctas]
    tile_clk = []
    for c in ctas:
        for stores in by_group(c).values():
            tile_clk += [b - a for (_, a), (_, b) in zip(stores, stores[1:])]
    first_clk = [c["stores"][0][1] - c["start_clk"] for c in ctas]
    starts = sorted(c["start_ns"] - first for c in ctas)
    sched = schedule(ctas, tiles)
    return {"event_us": launch["ours_ms"] * 1e3, "cublas_us": launch["cublas_ms"] * 1e3,
            "span_us": (last - first) / 1e3,
            "start_spread_us": starts[-1] / 1e3,
            "start_p90_us": starts[int(0.9 * len(starts))] / 1e3,
            "tiles_most": most, "end_most_min_us": min(end(most)) / 1e3,
            "end_most_med_us": med(end(most)) / 1e3, "end_most_max_us": max(end(most)) / 1e3,
            "tiles_fewest": fewest, "end_fewest_max_us": max(end(fewest)) / 1e3,
            "sm_mhz": med(mhz), "first_tile_clk": med(first_clk),
            "later_tile_clk": med(tile_clk) if tile_clk else 0,
            "model_static_us": sched[0] / 1e3 if sched else 0,
            "model_greedy_us": sched[1] / 1e3 if sched else 0}


def main():
    out_path, ptx = sys.argv[1:3]
    size = int(os.environ.get("SIZE", "4096"))
    launches = int(os.environ.get("LAUNCHES", "30"))
    cuda = driver()
    torch.zeros(1, device="cuda")
    ours = harness.Ours(ptx)
    types = {"f16": torch.float16, "bf16": torch.bfloat16}
    dt = types[ours.dtype]
    a = torch.randn(size, size, device="cuda", dtype=dt)
    b = torch.randn(size, size, device="cuda", dtype=dt)
    c = torch.empty(size, size, device="cuda", dtype=dt)
    launch = ours.launcher(a, b, c)
    cublas = lambda: torch.matmul(a, b)
    ptr, nbytes = ctypes.c_uint64(), ctypes.c_size_t()
    check(cuda.cuModuleGetGlobal_v2(ctypes.byref(ptr), ctypes.byref(nbytes), ours.module,
                                    b"ll_t"), "cuModuleGetGlobal")
    ctas = torch.cuda.get_device_properties(0).multi_processor_count
    tiles = (size // 128) * (size // 256)
    cache = runtime.driver.active.get_empty_cache_for_benchmark()
    host = ctypes.create_string_buffer(ctas * CTA_BYTES)
    for _ in range(20):
        launch()
        cublas()
    torch.cuda.synchronize()
    err = ((c.double() - cublas().double()).norm() / cublas().double().norm()).item()
    print(f"{ours.name} {ours.dtype} {size}^3: rel. error against cuBLAS {err:.2e}", flush=True)
    rows = []
    for i in range(launches):
        ms = {}
        for side, fn in (("ours", launch), ("cublas", cublas)):
            stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
            if side == "ours":
                check(cuda.cuMemsetD8Async(ptr, 0, ctypes.c_size_t(ctas * CTA_BYTES), stream),
                      "cuMemsetD8Async")
            cache.zero_()
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            fn()
            e1.record()
            torch.cuda.synchronize()
            ms[side + "_ms"] = e0.elapsed_time(e1)
        check(cuda.cuMemcpyDtoH_v2(host, ptr, ctypes.c_size_t(ctas * CTA_BYTES)), "cuMemcpyDtoH")
        recs = records(host.raw, ctas)
        row = {"launch": i, **ms, "summary": summary(ms, recs, tiles)}
        if i == 0:  # the raw stamps of the first launch
            row["ctas"] = recs
        rows.append(row)
    keys = rows[0]["summary"].keys()
    meds = {k: med(r["summary"][k] for r in rows) for k in keys}
    for k in keys:
        lo = min(r["summary"][k] for r in rows)
        hi = max(r["summary"][k] for r in rows)
        print(f"{k:20s} median {meds[k]:10.2f}   range {lo:10.2f} .. {hi:10.2f}", flush=True)
    print(f"event ratio cuBLAS / ours, median of launches: "
          f"{med(r['cublas_ms'] / r['ours_ms'] for r in rows):.4f}", flush=True)
    json.dump({"ptx": ptx, "size": size, "medians": meds, "launches": rows}, open(out_path, "w"))


if __name__ == "__main__":
    main()
