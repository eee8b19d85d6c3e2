#!/usr/bin/env bash
# Demo: pictures of hardware layouts (`linlayout show`): the published examples they reproduce, an
# mma v2 accumulator with its A and B operands read from a compiler dump, and a shared layout.
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"

blocked='#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>'
section "3. The TritonGPU docs' blocked example (16x16 over 2 warps), drawn as the docs draw it"
note "$ll show '$blocked' --shape 16x16 --threads"
"$ll" show "$blocked" --shape 16x16 --threads
note "(the docs print rows 0-3, ..., 14-15 of it: --max-rows 8 draws exactly their picture)"
note "The same layout as Gluon's tutorial draws it (T<thread>:<register>), with what each thread holds:"
"$ll" show "$blocked" --shape 16x16 --max-rows 6 --max-cols 8 --inverse

section "4. The docs' third example: 32x32 over 4 CTAs (CTAsPerCGA = [2, 2]), one block per CTA"
"$ll" show "${blocked%\}>}, CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], CTAOrder = [1, 0]}>" \
  --shape 32x32 --threads --max-rows 8 --max-cols 32

section "5. Gluon's tutorial: a warp tile of size_per_thread [2, 4]; then 4 warps on a tensor half their tile (each warp holds a copy)"
"$ll" show '#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>' \
  --shape 4x64 --max-cols 8
"$ll" show '#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], order = [1, 0]}>' \
  --shape 4x64 --max-cols 2

section "6. An mma v2 accumulator (mma.sync m16n8k16, 2 warps along M) and its A and B operands, from a dump"
dump=$build/demo-mma.ttgir
cat > "$dump" <<'TTGIR'
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 8]}>
#loc = loc("matmul.py":12:4)
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotB = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
TTGIR
note "aliases read from $dump:"
sed 's/^/    /' "$dump"
html=$build/demo-mma.html
"$ll" show 'tensor<32x8xf32, #mma>' 'tensor<32x16xf16, #dotA>' 'tensor<16x8xf16, #dotB>' \
  --aliases "$dump" --max-rows 12 --html "$html"
note "Thread T holds C rows T/4 and T/4+8 (+16 in warp 1); A packs two K elements per 32-bit"
note "register (T0:0, T0:1); B is held by both warps (T0|T32): each needs all of B's columns."
note "Coloured, side by side: $html"

section "7. A 128-byte-swizzled NVMMA shared layout: offset and bank of each fp16 element"
"$ll" show '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>' \
  --shape 8x64 --max-cols 16
