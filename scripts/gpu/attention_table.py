#!/usr/bin/env python3
"""The attention tables of docs/attention.md from one GPU run: our kernels (linlayout_gpu_bench
--only attention --json OURS) beside torch SDPA's cuDNN backend (the fa3 request's vendor JSON,
the same shapes in the same run).

    python3 scripts/gpu/attention_table.py OURS.json VENDOR.json

Prints two markdown tables: every kernel ("ours / cuDNN / ratio" per n_ctx; bf16 rows beside
cuDNN on bf16), and the best of our kernels per element type, head dim and mask with its ratio.
"""
import json
import sys


def main():
    ours = [r for r in json.load(open(sys.argv[1])) if r.get("bench") == "attention" and "TFLOPs" in r]
    vendor = json.load(open(sys.argv[2]))["rows"]
    short = {"float16": "f16", "bfloat16": "bf16"}
    cudnn = {(short.get(r["dtype"], r["dtype"]), r["d"], r["n_ctx"], bool(r["causal"])): r["tflops"]
             for r in vendor if r["library"] == "torch SDPA cudnn" and "tflops" in r}
    ctxs = sorted({r["n_ctx"] for r in ours})
    kernels = {}
    for r in ours:
        key = (r["variant"], r.get("dtype", "f16"), r["head_dim"], bool(r["causal"]))
        kernels.setdefault(key, {})[r["n_ctx"]] = r["TFLOPs"]

    def cell(tf, ref):
        return f"{tf:.0f} / {ref:.0f} / {tf / ref:.2f}" if tf and ref else "—"

    print("| kernel (bench variant) | d | causal | " + " | ".join(f"n_ctx {n}: ours / cuDNN / ratio" for n in ctxs) + " |")
    print("|---|---:|---|" + "---:|" * len(ctxs))
    for (v, t, d, causal), tf in sorted(kernels.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][3], kv[0][0])):
        cells = [cell(tf.get(n), cudnn.get((t, d, n, causal))) for n in ctxs]
        print(f"| {v} | {d} | {'yes' if causal else 'no'} | " + " | ".join(cells) + " |")

    print()
    print("| type | d | causal | " + " | ".join(f"n_ctx {n}: best (kernel) / cuDNN / ratio" for n in ctxs) + " |")
    print("|---|---:|---|" + "---:|" * len(ctxs))
    for t in sorted({k[1] for k in kernels}, key=lambda t: t != "f16"):
        for d in sorted({k[2] for k in kernels if k[1] == t}):
            for causal in (False, True):
                cells = []
                for n in ctxs:
                    best = max(((tf.get(n, 0), v) for (v, tt, dd, c), tf in kernels.items()
                                if tt == t and dd == d and c == causal), default=(0, ""))
                    ref = cudnn.get((t, d, n, causal))
                    cells.append(f"{best[0]:.0f} ({best[1]}) / {ref:.0f} / {best[0] / ref:.2f}"
                                 if best[0] and ref else "—")
                print(f"| {t} | {d} | {'yes' if causal else 'no'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
