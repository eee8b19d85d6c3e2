#!/usr/bin/env python3
"""Triton 3.6 running the scan kernels of scripts/gpu/triton_dumps.py (whose TTGIR is
examples/triton/scans.ttgir, compact.ttgir, argmax.ttgir and recurrence.ttgir) on the inputs linlayout_gpu_bench's scan section
gives them: the same kernels and launches, Triton's compiler. The dumps were made with sizes that
are not multiples of 16, so Triton gave their integer arguments no divisibility hints; here the
sizes are powers of two, and the kernels are compiled with those arguments unspecialised, so that
Triton compiles the TTGIR of the dumps (the same layouts, no wider accesses), as linlayout does.
Also records each kernel's registers. Writes JSON to argv[1]."""
import json, os, sys, tempfile
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "gpu"))
import torch, triton
import triton_dumps

scans = triton.jit(triton_dumps.scans.fn, do_not_specialize=["M", "N"])
argmax = triton.jit(triton_dumps.argmax.fn, do_not_specialize=["M", "N"])
recurrence = triton.jit(triton_dumps.recurrence.fn, do_not_specialize=["M", "N"])
compact = triton.jit(triton_dumps.compact.fn, do_not_specialize=["n"])


def tbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e12


def main():
    res = {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__}
    rows, cols = 1 << 20, 128
    x = torch.rand(rows, cols, device="cuda") * 2 - 1
    i = torch.randint(-3, 4, (rows, cols), device="cuda", dtype=torch.int32)
    y, p, r = torch.empty_like(x), torch.empty_like(i), torch.empty_like(i)
    f = lambda: scans[(rows // 32,)](x, i, y, p, r, rows, cols, BM=32, BN=128, num_warps=4)
    k = f()
    torch.testing.assert_close(y, torch.cumsum(x.double(), 1).float(), rtol=1e-4, atol=1e-4)
    assert torch.equal(r.view(-1, 32, cols), torch.cummax(i.view(-1, 32, cols), 1).values)
    ms = triton.testing.do_bench(f, return_mode="median")
    res["scans"] = {"ms": ms, "TBps": tbps(5 * rows * cols * 4, ms), "registers": k.n_regs}
    del x, i, y, p, r
    x = (torch.randint(-32, 33, (rows, cols), device="cuda")).float()
    vm, im = torch.empty(rows, device="cuda"), torch.empty(rows, device="cuda", dtype=torch.int32)
    jm = torch.empty(rows // 32, cols, device="cuda", dtype=torch.int32)
    f = lambda: argmax[(rows // 32,)](x, vm, im, jm, rows, cols, BM=32, BN=128, num_warps=4)
    k = f()
    assert torch.equal(im.long(), x.argmax(1)) and torch.equal(vm, x.max(1).values)
    assert torch.equal(jm.long(), x.view(-1, 32, cols).argmin(1))
    ms = triton.testing.do_bench(f, return_mode="median")
    res["argmax"] = {"ms": ms, "TBps": tbps(4 * (rows * cols + 2 * rows + rows // 32 * cols), ms),
                     "registers": k.n_regs}
    del x, vm, im, jm
    a = torch.rand(rows, cols, device="cuda") + 0.5
    x = torch.rand(rows, cols, device="cuda") * 2 - 1
    h, g = torch.empty_like(x), torch.empty_like(x)
    f = lambda: recurrence[(rows // 32,)](a, x, h, g, rows, cols, BM=32, BN=128, num_warps=4)
    k = f()
    ref = torch.zeros(rows, device="cuda")
    for j in range(cols):
        ref = a[:, j] * ref + x[:, j]
    torch.testing.assert_close(h[:, -1], ref, rtol=1e-3, atol=1e-3)
    ms = triton.testing.do_bench(f, return_mode="median")
    res["recurrence"] = {"ms": ms, "TBps": tbps(16 * rows * cols, ms), "registers": k.n_regs}
    del a, x, h, g
    n = 1 << 28
    x = torch.randn(n, device="cuda")
    out = torch.zeros(n, device="cuda")
    count = torch.empty(n // 1024, device="cuda", dtype=torch.int32)
    f = lambda: compact[(n // 1024,)](x, out, count, n, BLOCK=1024, num_warps=4)
    k = f()
    want = (x.view(-1, 1024) > 0).sum(1).to(torch.int32)
    assert torch.equal(count, want)
    kept = int(want.sum())
    ms = triton.testing.do_bench(f, return_mode="median")
    res["compact"] = {"ms": ms, "TBps": tbps(4 * (n + kept + n // 1024), ms), "registers": k.n_regs}
    print(json.dumps(res, indent=1))
    json.dump(res, open(sys.argv[1], "w"), indent=1)


main()
