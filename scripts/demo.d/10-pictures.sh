#!/usr/bin/env bash
# Demo: pictures of hardware layouts (issue: hardware layouts + pictures).
set -euo pipefail
ll=${1:-build}/bin/linlayout
section() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

section "3. The TritonGPU docs' 16x16 blocked example, drawn as the docs draw it"
"$ll" show '#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>' --shape 16x16 --threads

section "4. An mma v2 (mma.sync m16n8k16) accumulator, 16x16 over one warp, and its A and B operands"
mma='#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>'
echo "accumulator C (16x16):"
"$ll" show "$mma" --shape 16x16
echo "operand A (16x16, kWidth 2):"
"$ll" show "#ttg.dot_op<{opIdx = 0, parent = $mma, kWidth = 2}>" --shape 16x16
echo "operand B (16x16, kWidth 2):"
"$ll" show "#ttg.dot_op<{opIdx = 1, parent = $mma, kWidth = 2}>" --shape 16x16

section "5. A 128-byte-swizzled NVMMA shared layout: offset and bank of each fp16 element"
"$ll" show '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>' --shape 8x64 --bitwidth 16
