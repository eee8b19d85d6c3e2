#!/usr/bin/env python3
"""Triton 3.6's TritonGPU IR for a few tutorial kernels, as a user of linlayout would paste it.

Compiles (and runs once, on small inputs) vector add, fused softmax, layer norm, a masked
transpose, a tiled matmul, a masked matmul with a bias and relu, a histogram (atomic adds), bf16
row sums, a flash-attention forward pass, dropout (tl.rand), a matmul on host tensor
descriptors (TMA), scans (tl.cumsum, tl.cumprod, a running max by tl.associative_scan) and a
stream compaction (a cumsum gives each kept element its place), row maxima with their indices and
column argmins (reductions of two tensors), a linear recurrence (a scan of two tensors), an
i8 x i8 -> i32 matmul and an fp8 (e4m3) matmul, and writes each kernel's final TTGIR (`kernel.asm["ttgir"]`) to
OUT/<name>.ttgir. With DISABLE_MMA_V3=1 in the environment the matmul uses mma.sync (mma v2)
instead of wgmma on sm_90; with DUMP_PTX=1 each kernel's PTX is written beside its TTGIR.

  python3 scripts/gpu/triton_dumps.py OUT
"""
import os, sys
import torch, triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y, mask=cols < n_cols)


@triton.jit
def layer_norm(X, Y, W, B, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=mask)


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    t = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(y_ptr + rn[None, :] * M + rm[:, None], t, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a), tl.load(b))
        a += BK
        b += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def matmul_i8(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # i8 x i8 -> i32 (a quantised GEMM): the same tiling as matmul, an integer accumulator.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a), tl.load(b), out_dtype=tl.int32)
        a += BK
        b += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def matmul_fp8(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
               BK: tl.constexpr):
    # f32 inputs cast to fp8 (e4m3) in the kernel, multiplied into f32.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(tl.load(a).to(tl.float8e4nv), tl.load(b).to(tl.float8e4nv), acc)
        a += BK
        b += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def matmul_bias_relu(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    # Any M, N, K: the edges masked; C = relu(A B + bias) in f32.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.)
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :],
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.)
        acc = tl.dot(a, b, acc)
    acc += tl.load(bias_ptr + rn, mask=rn < N, other=0.)[None, :]
    acc = tl.maximum(acc, 0.)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def histogram(x_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(hist_ptr + (x & 63), 1, mask=mask)


@triton.jit
def row_sums(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # bf16 rows summed in f32, BM rows per program.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    acc = tl.zeros((BM,), dtype=tl.float32)
    for n in range(0, N, BN):
        rn = n + tl.arange(0, BN)
        x = tl.load(x_ptr + rm[:, None] * N + rn[None, :],
                    mask=(rm[:, None] < M) & (rn[None, :] < N), other=0.)
        acc += tl.sum(x.to(tl.float32), axis=1)
    tl.store(out_ptr + rm, acc, mask=rm < M)


@triton.jit
def attention(Q, K, V, O, N_CTX, sm_scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # One (head, query block) per program: O = softmax(Q K^T * sm_scale) V, online softmax.
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head * N_CTX * D
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(Q + base + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BN):
        rn = start_n + tl.arange(0, BN)
        k = tl.load(K + base + rn[None, :] * D + rd[:, None])
        qk = tl.dot(q, k) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + rn[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + base + rm[:, None] * D + rd[None, :], acc.to(tl.float16))


@triton.jit
def matmul_tma(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Tensor descriptors made on the host: Triton loads the tiles by TMA on sm_90.
    off_m = tl.program_id(0) * BM
    off_n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([off_m, k]), b_desc.load([k, off_n]), acc)
    c_desc.store([off_m, off_n], acc.to(tl.float16))


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    # Triton's tutorial 04: each element kept with probability 1 - p (tl.rand: Philox), scaled.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.rand(seed, offs)
    tl.store(out_ptr + offs, tl.where(r > p, x / (1 - p), 0.0), mask=mask)


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def scans(x_ptr, i_ptr, y_ptr, p_ptr, r_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Per BM x BN tile: f32 prefix sums along rows, i32 suffix products along rows and i32
    # running maxima down the columns.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + offs, mask=mask, other=0.)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=1), mask=mask)
    i = tl.load(i_ptr + offs, mask=mask, other=1)
    tl.store(p_ptr + offs, tl.cumprod(i, axis=1, reverse=True), mask=mask)
    tl.store(r_ptr + offs, tl.associative_scan(i, 0, _max), mask=mask)


@triton.jit
def compact(x_ptr, out_ptr, count_ptr, n, BLOCK: tl.constexpr):
    # Each program copies its positive elements, in order, to the front of its block of out.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.)
    keep = (x > 0) & (offs < n)
    place = tl.cumsum(keep.to(tl.int32), axis=0) - 1
    tl.store(out_ptr + tl.program_id(0) * BLOCK + place, x, mask=keep)
    tl.store(count_ptr + tl.program_id(0), tl.sum(keep.to(tl.int32), axis=0))


@triton.jit
def argmax(x_ptr, vmax_ptr, imax_ptr, imin_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Per BM x BN tile: each row's maximum and the first column holding it, and each column's
    # first row holding its minimum (over the tile's rows).
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=-float("inf"))
    v, i = tl.max(x, axis=1, return_indices=True, return_indices_tie_break_left=True)
    tl.store(vmax_ptr + rm, v, mask=rm < M)
    tl.store(imax_ptr + rm, i, mask=rm < M)
    j = tl.argmin(tl.where(mask, x, float("inf")), axis=0, tie_break_left=True)
    tl.store(imin_ptr + tl.program_id(0) * BN + rn, j, mask=rn < N)


@triton.jit
def _affine(a1, b1, a2, b2):
    # h -> a1 * h + b1 followed by h -> a2 * h + b2.
    return a1 * a2, b1 * a2 + b2


@triton.jit
def recurrence(a_ptr, x_ptr, h_ptr, g_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Along each row: h[j] = a[j] * h[j - 1] + x[j], h[-1] = 0; and from the row's end (a
    # reversed scan): g[j] = a[j] * g[j + 1] + x[j], g[N] = 0.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    a = tl.load(a_ptr + offs, mask=mask, other=1.)
    x = tl.load(x_ptr + offs, mask=mask, other=0.)
    _, h = tl.associative_scan((a, x), 1, _affine)
    tl.store(h_ptr + offs, h, mask=mask)
    _, g = tl.associative_scan((a, x), 1, _affine, reverse=True)
    tl.store(g_ptr + offs, g, mask=mask)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    dev = "cuda"
    f32 = lambda *s: torch.randn(*s, device=dev, dtype=torch.float32)
    f16 = lambda *s: torch.randn(*s, device=dev, dtype=torch.float16)
    kernels = {}
    x, y, o = f32(4000), f32(4000), f32(4000)
    kernels["add"] = add[(4,)](x, y, o, 4000, BLOCK=1024)
    x, o = f32(8, 1000), f32(8, 1000)
    kernels["softmax"] = softmax[(8,)](o, x, 1000, 1000, 1000, BLOCK=1024, num_warps=4)
    x, yy, w, b = f32(8, 1000), f32(8, 1000), f32(1000), f32(1000)
    kernels["layer_norm"] = layer_norm[(8,)](x, yy, w, b, 1000, 1000, 1e-5, BLOCK=256, num_warps=2)
    x, yy = f16(100, 200), f16(200, 100)
    kernels["transpose"] = transpose[(2, 4)](x, yy, 100, 200, BM=64, BN=64, num_warps=4)
    a, bb, c = f16(256, 256), f16(256, 256), f16(256, 256)
    kernels["matmul"] = matmul[(2, 2)](a, bb, c, 256, 256, 256, BM=128, BN=128, BK=32,
                                       num_warps=4, num_stages=3)
    i8 = lambda *s: torch.randint(-128, 128, s, device=dev, dtype=torch.int8)
    a, bb, c = i8(256, 256), i8(256, 256), torch.empty(256, 256, device=dev, dtype=torch.int32)
    kernels["matmul_i8"] = matmul_i8[(2, 2)](a, bb, c, 256, 256, 256, BM=128, BN=128, BK=64,
                                             num_warps=4, num_stages=3)
    assert torch.equal(c, (a.int().cpu() @ bb.int().cpu()).to(dev))
    a, bb, c = f32(256, 256), f32(256, 256), f32(256, 256)
    kernels["matmul_fp8"] = matmul_fp8[(2, 2)](a, bb, c, 256, 256, 256, BM=128, BN=128, BK=64,
                                               num_warps=4, num_stages=3)
    e4 = torch.float8_e4m3fn
    # wgmma sums fp8 products in fewer bits than f32 (mma.sync on f16 upcasts does not)
    torch.testing.assert_close(c, a.to(e4).float() @ bb.to(e4).float(), rtol=1e-2, atol=5e-2)
    a, bb, bias, c = f16(100, 72), f16(72, 130), f32(130), f32(100, 130)
    kernels["matmul_bias_relu"] = matmul_bias_relu[(2, 3)](a, bb, bias, c, 100, 130, 72, BM=64,
                                                           BN=64, BK=32, num_warps=4,
                                                           num_stages=2)
    x, h = torch.randint(0, 1 << 20, (3000,), device=dev, dtype=torch.int32), \
        torch.zeros(64, device=dev, dtype=torch.int32)
    kernels["histogram"] = histogram[(3,)](x, h, 3000, BLOCK=1024)
    x, o = torch.randn(100, 300, device=dev, dtype=torch.bfloat16), f32(100)
    kernels["row_sums"] = row_sums[(4,)](x, o, 100, 300, BM=32, BN=64, num_warps=4)
    q, k, v, o = f16(2, 256, 64), f16(2, 256, 64), f16(2, 256, 64), f16(2, 256, 64)
    kernels["attention"] = attention[(2, 2)](q, k, v, o, 256, 0.125, D=64, BM=128, BN=64,
                                             num_warps=4, num_stages=2)
    x, o = f32(4000), f32(4000)
    kernels["dropout"] = dropout[(4,)](x, o, 4000, 0.5, 123, BLOCK=1024)
    x, y = f32(50, 100), f32(50, 100)
    i = torch.randint(-3, 4, (50, 100), device=dev, dtype=torch.int32)
    p, r = torch.empty_like(i), torch.empty_like(i)
    kernels["scans"] = scans[(2,)](x, i, y, p, r, 50, 100, BM=32, BN=128, num_warps=4)
    torch.testing.assert_close(y, torch.cumsum(x, 1), rtol=1e-4, atol=1e-4)
    for rows in (slice(0, 32), slice(32, 50)):
        torch.testing.assert_close(r[rows], torch.cummax(i[rows], 0).values)
    x, o, cnt = f32(3000), torch.zeros(3072, device=dev), torch.zeros(3, device=dev,
                                                                       dtype=torch.int32)
    kernels["compact"] = compact[(3,)](x, o, cnt, 3000, BLOCK=1024, num_warps=4)
    x = f32(50, 100)
    vm, im = f32(50), torch.zeros(50, device=dev, dtype=torch.int32)
    jm = torch.zeros(2, 128, device=dev, dtype=torch.int32)
    kernels["argmax"] = argmax[(2,)](x, vm, im, jm, 50, 100, BM=32, BN=128, num_warps=4)
    torch.testing.assert_close(vm, x.max(1).values)
    torch.testing.assert_close(im.long(), x.argmax(1))
    for p, rows in enumerate((slice(0, 32), slice(32, 50))):
        torch.testing.assert_close(jm[p, :100].long(), x[rows].argmin(0))
    a, x, h, g = torch.rand(50, 100, device=dev) + 0.5, f32(50, 100), f32(50, 100), \
        f32(50, 100)
    kernels["recurrence"] = recurrence[(2,)](a, x, h, g, 50, 100, BM=32, BN=128, num_warps=4)
    ref = torch.zeros(50, device=dev)
    for j in range(100):
        ref = a[:, j] * ref + x[:, j]
        torch.testing.assert_close(h[:, j], ref, rtol=1e-3, atol=1e-3)
    ref = torch.zeros(50, device=dev)
    for j in reversed(range(100)):
        ref = a[:, j] * ref + x[:, j]
        torch.testing.assert_close(g[:, j], ref, rtol=1e-3, atol=1e-3)
    try:
        from triton.tools.tensor_descriptor import TensorDescriptor
        a, bb, c = f16(256, 256), f16(256, 256), f16(256, 256)
        kernels["matmul_tma"] = matmul_tma[(2, 2)](
            TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(bb, [64, 128]),
            TensorDescriptor.from_tensor(c, [128, 128]), 256, BM=128, BN=128, BK=64, num_warps=4,
            num_stages=3)
    except Exception as e:  # an older Triton without host descriptors
        print("matmul_tma:", e)
    torch.cuda.synchronize()
    tag = "mma2" if os.environ.get("DISABLE_MMA_V3") == "1" else "default"
    for name, k in kernels.items():
        with open(os.path.join(out, f"{name}-{tag}.ttgir"), "w") as f:
            f.write(k.asm["ttgir"])
        if os.environ.get("DUMP_PTX") == "1":
            with open(os.path.join(out, f"{name}-{tag}.ptx"), "w") as f:
                f.write(k.asm["ptx"])
        print(f"{name}: {k.n_regs} registers, {k.n_spills} spills")
    print("wrote", len(kernels), "kernels to", out)


if __name__ == "__main__":
    main()
