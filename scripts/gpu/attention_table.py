#!/usr/bin/env python3
"""The attention tables of docs/attention.md from one GPU run: our kernels (linlayout_gpu_bench
--only attention --json OURS) beside torch SDPA's cuDNN backend (the fa3 request's vendor JSON,
the same shapes in the same run).

    python3 scripts/gpu/attention_table.py OURS.json VENDOR.json

Prints two markdown tables: every kernel ("ours / cuDNN / ratio" per n_ctx), and the best of our
kernels per head dim and mask with its ratio.
"""
import json
import sys


def main():
    ours = [r for r in json.load(open(sys.argv[1])) if r.get("bench") == "attention" and "TFLOPs" in r]
    vendor = json.load(open(sys.argv[2]))["rows"]
    cudnn = {(r["d"], r["n_ctx"], bool(r["causal"])): r["tflops"]
             for r in vendor if r["library"] == "torch SDPA cudnn" and "tflops" in r}
    ctxs = sorted({r["n_ctx"] for r in ours})
    kernels = {}
    for r in ours:
        key = (r["variant"], r["head_dim"], bool(r["causal"]))
        kernels.setdefault(key, {})[r["n_ctx"]] = r["TFLOPs"]

    def cell(tf, ref):
        return f"{tf:.0f} / {ref:.0f} / {tf / ref:.2f}" if tf and ref else "—"

    print("| kernel (bench variant) | d | causal | " + " | ".join(f"n_ctx {n}: ours / cuDNN / ratio" for n in ctxs) + " |")
    print("|---|---:|---|" + "---:|" * len(ctxs))
    for (v, d, causal), tf in sorted(kernels.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0])):
        cells = [cell(tf.get(n), cudnn.get((d, n, causal))) for n in ctxs]
        print(f"| {v} | {d} | {'yes' if causal else 'no'} | " + " | ".join(cells) + " |")

    print()
    print("| d | causal | " + " | ".join(f"n_ctx {n}: best (kernel) / cuDNN / ratio" for n in ctxs) + " |")
    print("|---:|---|" + "---:|" * len(ctxs))
    for d in sorted({k[1] for k in kernels}):
        for causal in (False, True):
            cells = []
            for n in ctxs:
                best = max(((tf.get(n, 0), v) for (v, dd, c), tf in kernels.items()
                            if dd == d and c == causal), default=(0, ""))
                ref = cudnn.get((d, n, causal))
                cells.append(f"{best[0]:.0f} ({best[1]}) / {ref:.0f} / {best[0] / ref:.2f}"
                             if best[0] and ref else "—")
            print(f"| {d} | {'yes' if causal else 'no'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
