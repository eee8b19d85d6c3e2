#!/usr/bin/env python3
"""Joins what bench/gpu/run.sh measured into one table: linlayout (linlayout*.json) beside
Triton/Gluon (gluon_*_bench.json), all from the same run on the same GPU.

  python3 bench/gpu/report.py DIR [--docs docs/performance.md] [--command CMD]

Prints the table; writes DIR/performance-gpu.md (the GPU section of docs/performance.md); with
--docs, replaces that section in the given file (between the gpu-results markers; appended if
the markers are missing)."""
import datetime, json, os, re, subprocess, sys

BEGIN, END = "<!-- gpu-results:begin -->", "<!-- gpu-results:end -->"


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None


def fmt(x, spec=".3f"):
    return "—" if x is None else format(x, spec)


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def sm_clock_mhz():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.max.sm", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=20).stdout.strip().split("\n")[0]
        return float(out)
    except Exception:
        return None


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    d = args[0]
    docs = args[args.index("--docs") + 1] if "--docs" in args else None
    command = args[args.index("--command") + 1] if "--command" in args else "bash bench/gpu/run.sh (device tool, carry .carry)"
    ours = []
    for f in sorted(os.listdir(d)):
        if f.startswith("linlayout") and f.endswith(".json"):
            for r in load(os.path.join(d, f)) or []:
                if r.get("bench") != "device" or not any(o.get("bench") == "device" for o in ours):
                    ours.append(r)
    gconv = load(os.path.join(d, "gluon_convert_bench.json")) or []
    gmem = load(os.path.join(d, "gluon_memcpy_bench.json")) or {}
    ggemm = load(os.path.join(d, "gluon_gemm_bench.json")) or {}
    gatt = load(os.path.join(d, "gluon_attention_bench.json")) or {}
    gscan = load(os.path.join(d, "gluon_scan_bench.json")) or {}
    gpu_txt = open(os.path.join(d, "gpu.txt")).read().strip() if os.path.exists(os.path.join(d, "gpu.txt")) else ""
    meta = json.load(open(os.path.join(d, "meta.json"))) if os.path.exists(os.path.join(d, "meta.json")) else {}
    clock = meta.get("sm_clock_mhz") or sm_clock_mhz()
    dev = next((r for r in ours if r.get("bench") == "device"), {})
    by = lambda b: [r for r in ours if r.get("bench") == b]

    L = []
    L.append(f"GPU: {gpu_txt or dev.get('name', '?')}; {dev.get('sms', '?')} SMs; PTX {dev.get('arch', '?')}; "
             f"Triton {gmem.get('triton', ggemm.get('triton', '?'))}; torch {ggemm.get('torch', '?')}; "
             f"max SM clock {fmt(clock, '.0f')} MHz")
    L.append(f"Date: {meta.get('date') or datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC')}. "
             f"Command: `{command}`.")
    L.append("")
    L.append("All numbers are medians of single launches timed with device events after an L2 flush "
             "(Triton's do_bench method), measured in one run, linlayout and Triton side by side.")
    L.append("")

    # Bandwidth.
    dd = next(iter(by("device_copy")), {})
    ceiling = dd.get("TBps")
    L.append("### Copies (TB/s, bytes read + written)")
    L.append("")
    L.append("| kernel | linlayout | % of device copy | Triton/Gluon | ratio |")
    L.append("|---|---:|---:|---:|---:|")
    L.append(f"| device-to-device copy (cuMemcpyDtoD / torch copy_) | {fmt(ceiling)} | 100 | {fmt(gmem.get('device_copy_TBps'))} | |")
    def variant(r):
        return f", {r['variant']}" if r.get("variant") else ""
    for r in by("memcpy_1d"):
        g = (gmem.get("memcpy_1d") or {}).get(r["config"])
        L.append(f"| memcpy 1-D f32, {r['config']}{variant(r)} | {fmt(r.get('TBps'))}{'' if r.get('correct', 1) else ' (WRONG)'} | "
                 f"{fmt(100 * r['TBps'] / ceiling if ceiling and r.get('TBps') else None, '.0f')} | {fmt(g)} | {fmt(ratio(r.get('TBps'), g), '.2f')} |")
    for r in by("memcpy_2d"):
        L.append(f"| memcpy 2-D f32 32768², tile {r['config']}{variant(r)} | {fmt(r.get('TBps'))}{'' if r.get('correct', 1) else ' (WRONG)'} | "
                 f"{fmt(100 * r['TBps'] / ceiling if ceiling and r.get('TBps') else None, '.0f')} | | |")
    g2 = gmem.get("memcpy_2d_inout_TBps")
    for r in by("copy_2d_inout"):
        L.append(f"| transposed 2-D copy f32 32768², {r['config']} | {fmt(r.get('TBps'))}{'' if r.get('correct', 1) else ' (WRONG)'} | "
                 f"{fmt(100 * r['TBps'] / ceiling if ceiling and r.get('TBps') else None, '.0f')} | {fmt(g2)} | {fmt(ratio(r.get('TBps'), g2), '.2f')} |")
    if gmem.get("torch_transpose_copy_TBps"):
        L.append(f"| transposed copy through torch (out.copy_(a) into a transposed view) | | | {fmt(gmem['torch_transpose_copy_TBps'])} | |")
    L.append("")

    # Conversions.
    L.append("### Layout conversions (128×128 tile, 4 warps; ns per tile-conversion, GPU-wide: (t(64) − t(0)) / (2·64·tiles))")
    L.append("")
    L.append("| pair | dtype | linlayout ns | path (ours) | Triton ns | speed-up (Triton / ours) | ours: smem B/clk/SM |")
    L.append("|---|---|---:|---|---:|---:|---:|")
    gidx = {(r["name"], r["dtype"]): r for r in gconv}
    for r in by("convert"):
        g = gidx.get((r["name"], r["dtype"]), {})
        ns, gns = r.get("ns_per_conversion_per_tile"), g.get("ns_per_conversion_per_tile")
        eb = 2 if r["dtype"] == "float16" else 4
        bw = None
        if ns and clock and dev.get("sms") and "shared" in (r.get("paths") or ""):
            # Each conversion writes and reads the tile through shared memory once.
            bw = 2 * 128 * 128 * eb / (ns * dev["sms"] * clock * 1e-3)
        err = r.get("error")
        L.append(f"| {r['name']} | {r['dtype']} | {fmt(ns) if not err else 'error'}{'' if r.get('correct', 1) else ' (WRONG)'} | "
                 f"{(r.get('paths') or '').split('+')[0] if not err else err[:80]} | {fmt(gns)} | {fmt(ratio(gns, ns), '.2f')} | {fmt(bw, '.1f')} |")
    L.append("")

    # Conversion paths, forced, against the cost model.
    gpaths = {(r["name"], r["dtype"]): r for r in load(os.path.join(d, "gluon_paths_bench.json")) or []}
    prows = by("convert_path")
    if prows:
        L.append("### Conversion paths against the cost model (bench/gpu/conversion_paths.jsonl: pairs inside warps "
                 "that warp shuffles and shared memory both convert, each forced onto each path; ns per tile-conversion "
                 "as above; model cycles per round trip src → dst → src)")
        L.append("")
        L.append("| pair | shape | dtype | model cycles: shuffle / shared | measured ns: shuffle / shared | model picks | "
                 "faster on the GPU | ours (planner's pick) ns | Triton's path | Triton ns | Triton / ours |")
        L.append("|---|---|---|---:|---:|---|---|---:|---|---:|---:|")
        keys = []
        for r in prows:
            if (r["name"], r["dtype"]) not in keys:
                keys.append((r["name"], r["dtype"]))
        agree = missed = 0
        losses = []
        short = {"warp-shuffle": "shuffle", "shared-memory": "shared"}
        ns = lambda r: None if r.get("error") else r.get("ns_per_conversion_per_tile")
        # "*" marks a kernel that spills registers: ours by the JIT's local bytes, Triton's by its
        # n_spills, or where that was not recorded, by local stores (STL) in its SASS.
        def triton_spills(g, k):
            if "spills" in g:
                return g["spills"] > 0
            sass = os.path.join(d, "ptx", "triton_path_%s_%s.sass" % k)
            return os.path.exists(sass) and re.search(r"\bSTL\b", open(sass).read()) is not None
        ours_spills = lambda r: r.get("local_bytes", 0) > 0
        mark = lambda r: ("*" if ours_spills(r) else "") + ("" if r.get("correct", 1) else " (WRONG)")
        spilled = False
        # The model's cycles, None where the path is not feasible (the bench writes -1).
        feasible = lambda c: None if c is None or c < 0 else c
        for k in keys:
            rs = {r["path"]: r for r in prows if (r["name"], r["dtype"]) == k}
            sh, sm, auto = rs.get("warp-shuffle", {}), rs.get("shared-memory", {}), rs.get("auto", {})
            mc_sh, mc_sm = feasible(sh.get("model_cycles")), feasible(sm.get("model_cycles"))
            pick = None if mc_sh is None or mc_sm is None else ("shuffle" if mc_sh < mc_sm - 1e-9 else "shared")
            taken = (auto.get("taken") or "").split(",")[0]
            pick = short.get(taken.replace("_", "-"), pick)
            faster = None
            if ns(sh) is not None and ns(sm) is not None:
                faster = "shuffle" if ns(sh) < ns(sm) else "shared"
                if pick == faster:
                    agree += 1
                else:
                    missed += 1
                    losses.append(max(ns(sh), ns(sm)) / min(ns(sh), ns(sm)) - 1)
            g = gpaths.get(k, {})
            theirs_spill = bool(g) and triton_spills(g, k)
            spilled |= theirs_spill or any(ours_spills(r) for r in (sh, sm, auto))
            L.append(f"| {k[0]} | {auto.get('shape', sh.get('shape', '?'))} | {k[1]} | {fmt(mc_sh, '.0f')} / {fmt(mc_sm, '.0f')} | "
                     f"{fmt(ns(sh))}{mark(sh)} / {fmt(ns(sm))}{mark(sm)} | {pick or '—'} | {faster or '—'} | "
                     f"{fmt(ns(auto))}{mark(auto)} | {short.get(g.get('path'), g.get('path', '—'))}{' (WRONG)' if 'wrong' in g else ''} | "
                     f"{fmt(g.get('ns_per_conversion_per_tile'))}{'*' if theirs_spill else ''} | "
                     f"{fmt(ratio(g.get('ns_per_conversion_per_tile'), ns(auto)), '.2f')} |")
        L.append("")
        if spilled:
            L.append("\\* the kernel spills registers to local memory (ours: the JIT's local bytes; Triton's: "
                     "n_spills, or local stores in its SASS).")
            L.append("")
        if agree + missed:
            L.append(f"The model picks the path that is faster on this GPU in {agree} of {agree + missed} pairs"
                     + (f"; where it does not, its pick is {100 * max(losses):.0f} % slower at most "
                        f"({100 * sum(losses) / len(losses):.0f} % on average)." if losses else "."))
            L.append("")

    # GEMM.
    L.append("### GEMM f16 × f16 → f32, and bf16 × bf16 → f32 for the rows marked -bf16 (TFLOP/s)")
    L.append("")
    L.append("| size | variant | linlayout (examples/matmul*.tir) | Gluon twin, same tiling and schedule | torch.matmul (cuBLAS) | ours / cuBLAS | ours / Gluon |")
    L.append("|---|---|---:|---:|---:|---:|---:|")
    for r in by("gemm"):
        variant = r.get("variant", "plain")
        if "error" in r:
            L.append(f"| — | {variant} | error: {r['error'][:120]} | | | | |")
            continue
        n = str(int(r["n"]))
        g = (ggemm.get("sizes") or {}).get(n, {})
        # A prefetched variant is measured against the Gluon twin of its tiling and schedule
        # without prefetch (the Gluon kernels load whole K steps).
        # A bf16 row ("-bf16") against cuBLAS with bf16 inputs and the bf16 twin.
        twin = variant.replace("-prefetch", "")
        gkey = "gluon_TFLOPs" if twin == "plain" else \
            "gluon_" + twin.replace("-", "_") + "_TFLOPs"
        tkey = "torch_bf16_TFLOPs" if variant.endswith("-bf16") else "torch_TFLOPs"
        # A twin that spills registers says how many (gluon_gemm_bench.py records n_spills).
        gspills = g.get(gkey.replace("_TFLOPs", "_spills"))
        gspill = f" (spills {gspills})" if gspills else ""
        L.append(f"| {n}³ | {variant} | {fmt(r.get('TFLOPs'), '.1f')} | {fmt(g.get(gkey), '.1f')}{gspill} | "
                 f"{fmt(g.get(tkey), '.1f')} ({'bf16 in, ' if tkey != 'torch_TFLOPs' else ''}{g.get('torch_out_dtype', '?')} out) | "
                 f"{fmt(ratio(r.get('TFLOPs'), g.get(tkey)), '.2f')} | {fmt(ratio(r.get('TFLOPs'), g.get(gkey)), '.2f')} |")
    sweep = load(os.path.join(d, "triton_mma_sync_sweep.json")) or {}
    if sweep.get("sizes"):
        # Triton's own compiler held to mma.sync: the best of its sweep at each size, against
        # the cuBLAS the sweep timed in its own process, and our best mma.sync row.
        best_sync = {}
        for r in by("gemm"):  # f16 rows whose PTX multiplies with mma.sync
            if r.get("TFLOPs") and r.get("ptx_mma.sync") and r.get("dtype", "f16") == "f16":
                n = str(int(r["n"]))
                best_sync[n] = max(best_sync.get(n, 0), r["TFLOPs"])
        parts = []
        for n, e in sweep["sizes"].items():
            timed = [r for r in e.get("rows", []) if r.get("TFLOPs")]
            if not timed:
                continue
            b = max(timed, key=lambda r: r["TFLOPs"])
            part = (f"{n}³: {fmt(b['TFLOPs'], '.1f')} ({b['form']}, {b['BM']}×{b['BN']}×{b['BK']}, "
                    f"{b['warps']} warps, {b['stages']} stages; {len(timed)} tried) = "
                    f"{fmt(100 * b['TFLOPs'] / e['cublas_TFLOPs'], '.1f')} % of cuBLAS {fmt(e['cublas_TFLOPs'], '.1f')}")
            if best_sync.get(n):
                part += f"; our best mma.sync row is {fmt(ratio(best_sync[n], b['TFLOPs']), '.2f')}× it"
            parts.append(part)
        L.append("")
        L.append(f"Triton {sweep.get('triton', '?')}'s own compiler held to mma.sync (`DISABLE_MMA_V3=1`; "
                 "`tl.dot` GEMMs with pointer loads or tensor descriptors over a sweep of tilings, warps and "
                 "stages, bench/gpu/triton_mma_sync_sweep.py), its best: " + "; ".join(parts) + ".")
    att = by("attention")
    if att:
        # Attention (examples/attention.tir) beside its Gluon twins and torch's flash attention.
        L.append("")
        L.append("### Attention forward, f16, head dim 64 (d128-: 128) (TFLOP/s: 4 · heads · n_ctx² · d flops, half for causal)")
        L.append("")
        L.append("| heads × n_ctx | variant | linlayout (examples/attention.tir) | Gluon twin, same tiling and schedule | torch SDPA (flash backend) | ours / flash | ours / Gluon |")
        L.append("|---|---|---:|---:|---:|---:|---:|")
        for r in att:
            g = (gatt.get("sizes") or {}).get(str(int(r["n_ctx"])), {})
            # Causal rows ("causal-...") against torch's causal flash attention (no Gluon twin),
            # head-dim-128 rows ("d128-...") and bf16 rows ("bf16-...") against torch's flash
            # attention of that head dim or input type.
            gkey = "gluon_" + r["variant"].replace("-", "_") + "_TFLOPs"
            fkey = ("torch_flash_causal_TFLOPs" if r.get("causal") else
                    "torch_flash_d128_TFLOPs" if r.get("head_dim") == 128 else
                    "torch_flash_bf16_TFLOPs" if r.get("dtype") == "bf16" else "torch_flash_TFLOPs")
            L.append(f"| {int(r['heads'])} × {int(r['n_ctx'])} | {r['variant']} | {fmt(r.get('TFLOPs'), '.1f')} | "
                     f"{fmt(g.get(gkey), '.1f')} | {fmt(g.get(fkey), '.1f')} | "
                     f"{fmt(ratio(r.get('TFLOPs'), g.get(fkey)), '.2f')} | "
                     f"{fmt(ratio(r.get('TFLOPs'), g.get(gkey)), '.2f')} |")
    peaks = [r for r in by("mma_peak") if r.get("TFLOPs") and "chains" in r]
    fed = [r for r in by("mma_peak") if "ldmatrix_per_slice" in r]
    if peaks:
        best = max(peaks, key=lambda r: r["TFLOPs"])
        cub = [g.get("torch_TFLOPs") for g in (ggemm.get("sizes") or {}).values() if g.get("torch_TFLOPs")]
        L.append("")
        # Warps per scheduler: 4 (16 warps per SM) unless the record says (older runs do not).
        wps = lambda r: int(r.get("warps_per_scheduler", 4))
        two = [r for r in peaks if wps(r) == 2]
        one = [r for r in peaks if wps(r) == 1]
        L.append(f"Ceiling of `mma.sync` here (a kernel issuing only `mma.sync.m16n8k16` f16 → f32, "
                 f"{int(best['chains'])} independent accumulators per warp, {4 * wps(best)} warps per SM, no memory): "
                 f"**{fmt(best['TFLOPs'], '.1f')} TFLOP/s**"
                 + (f" = {fmt(100 * best['TFLOPs'] / max(cub), '.0f')}–{fmt(100 * best['TFLOPs'] / min(cub), '.0f')} % of cuBLAS above"
                    if cub else "")
                 + (f"; with 8 warps per SM (2 per scheduler, the 128×256 tile's occupancy) "
                    f"{fmt(max(r['TFLOPs'] for r in two), '.1f')}" if two else "")
                 + (f", with 4 (1 per scheduler) {fmt(max(r['TFLOPs'] for r in one), '.1f')}" if one else "")
                 + ".")
    if fed:
        # The GEMM's inner loop without its copies (GpuBench.cpp, mmaLdsmPeakPtx).
        L.append("")
        L.append("The 128×256 GEMM's inner loop alone (8 warps per SM, each a 64×64 block; per K slice of 16: "
                 "mma.sync, the next slice's ldmatrix.x4, stores standing in for the copies' writes; "
                 "no copies, waits or barriers):")
        L.append("")
        L.append("| mma.sync | ldmatrix.x4 | loaded slices ahead | st.shared.v4 (512 B) | TFLOP/s | shared memory B/clk/SM |")
        L.append("|---:|---:|---:|---:|---:|---:|")
        for r in fed:
            bpc = r["smem_bytes_per_ns_per_sm"] / (clock * 1e-3) if clock and r.get("smem_bytes_per_ns_per_sm") else None
            L.append(f"| {int(r['mma_per_slice'])} | {int(r['ldmatrix_per_slice'])} | {int(r.get('slices_ahead', 1))} | "
                     f"{int(r['st_shared_per_slice'])} | "
                     f"{fmt(r['TFLOPs'], '.1f') if r['mma_per_slice'] else '—'} | {fmt(bpc, '.1f')} |")
    scans = by("scan")
    if scans:
        # Triton's scan kernels (examples/triton/scans.ttgir, compact.ttgir) compiled here as
        # Triton wrote them, beside Triton running the same Python kernels.
        what = {"scans": "scans: 2^20 × 128, f32 row cumsum, i32 reversed row cumprod, i32 running max down 32-row tiles",
                "compact": "stream compaction of 2^28 f32, 1024 per program (a cumsum places the kept ones)",
                "argmax": "argmax: 2^20 × 128 f32, row max + first index, column argmin of 32-row tiles",
                "recurrence": "recurrence: 2^20 × 128 f32, h = a·h' + x along rows, forward and reversed"}
        L.append("")
        L.append("### Scans (TB/s, bytes read + written; Triton's TTGIR compiled here as written, Triton running the same kernel)")
        L.append("")
        L.append("| kernel | linlayout | Triton | ours / Triton | registers (ours / Triton) |")
        L.append("|---|---:|---:|---:|---:|")
        for r in scans:
            t = gscan.get(r["config"]) or {}
            g = t.get("TBps")
            regs = f"{r.get('registers', '?')} / {t.get('registers', '?')}"
            L.append(f"| {what.get(r['config'], r['config'])} | {fmt(r.get('TBps'))}{'' if r.get('correct', 1) else ' (WRONG)'} | "
                     f"{fmt(g)} | {fmt(ratio(r.get('TBps'), g), '.2f')} | {regs} |")
    L.append("")
    text = "\n".join(L)
    print(text)
    section = f"## GPU\n\n{BEGIN}\n{text}\n{END}\n"
    with open(os.path.join(d, "performance-gpu.md"), "w") as f:
        f.write(section)
    if docs:
        old = open(docs).read() if os.path.exists(docs) else "# Performance\n"
        if BEGIN in old and END in old:
            new = old[:old.index(BEGIN)] + BEGIN + "\n" + text + "\n" + old[old.index(END):]
        else:
            new = old.rstrip() + "\n\n" + section
        with open(docs, "w") as f:
            f.write(new)
    return 0


sys.exit(main())
