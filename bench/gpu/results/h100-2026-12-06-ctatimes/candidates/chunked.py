#!/usr/bin/env python3
"""examples/matmul_ws_split_tmastore_f32out.tir turned into f16 (or, through run.sh's sed, bf16)
C: each warp group converts its four 64 x 64 chunks of C to f16 and stores them one by one
through shared slots (the f32 kernel's chunked epilogue), and the ring holds STAGES stages.

  python3 chunked.py IN.tir OUT.tir NAME STAGES SLOTS

SLOTS (2 or 4) is the slots per warp group: with 4 each chunk has its own (the 64 KB of C of
the f16 kernel) and a chunk waits only for the store of the same chunk a tile before; with 2,
as in the f32 kernel, a chunk waits for the store two chunks back, and C takes 32 KB, which
leaves room for a fourth stage (4 x 48 KB + 32 KB = 224 KB)."""
import re, sys


def main():
    src, dst, name, stages, slots = sys.argv[1:]
    stages, slots = int(stages), int(slots)
    assert stages in (3, 4) and slots in (2, 4)
    t = open(src).read()
    t = re.sub(r"^//.*\n", "", t, flags=re.M)  # the f32 kernel's header comment
    t = re.sub(r"@matmul_ws_split_tmastore_f32out\(", f"@{name}(", t)
    t = t.replace("elementBitWidth = 32}>", "elementBitWidth = 16}>")
    t = t.replace("x64xf32, #sc", "x64xf16, #sc")
    # convert each chunk before storing it
    t = re.sub(r"(?P<i>[ ]*)ttg\.local_store (?P<q>%q\d#\d), (?P<ct>%ct\d) : "
               r"tensor<64x64xf32, #mma64> -> (?P<ty>.*)\n",
               lambda m: f"{m['i']}{m['ct']}h = arith.truncf {m['q']} : tensor<64x64xf32, #mma64> "
               f"to tensor<64x64xf16, #mma64>\n{m['i']}ttg.local_store {m['ct']}h, {m['ct']} : "
               f"tensor<64x64xf16, #mma64> -> {m['ty']}\n", t)
    if slots == 4:
        t = t.replace("memdesc<4x64x64xf16, #sc", "memdesc<8x64x64xf16, #sc")
        t = re.sub(r"(?P<i>[ ]*)%slot0 = arith\.constant 2 : i32\n"
                   r"[ ]*%slot1 = arith\.constant 3 : i32\n",
                   lambda m: "".join(f"{m['i']}%slot{j} = arith.constant {4 + j} : i32\n"
                                     for j in range(4)), t)
        t = re.sub(r"(?P<i>[ ]*)%slot1 = arith\.constant 1 : i32\n",
                   lambda m: f"{m['i']}%slot1 = arith.constant 1 : i32\n"
                   f"{m['i']}%slot2 = arith.constant 2 : i32\n"
                   f"{m['i']}%slot3 = arith.constant 3 : i32\n", t)
        t = re.sub(r"(%ct2 = ttg\.memdesc_index %\w*cbuf)\[%slot0\]", r"\1[%slot2]", t)
        t = re.sub(r"(%ct3 = ttg\.memdesc_index %\w*cbuf)\[%slot1\]", r"\1[%slot3]", t)
        t = t.replace("ttng.async_tma_store_wait {pendings = 1 : i32}",
                      "ttng.async_tma_store_wait {pendings = 3 : i32}")
    if stages == 4:
        t = t.replace("memdesc<3x1xi64", "memdesc<4x1xi64").replace(
            "memdesc<6x64x64xf16, #sa", "memdesc<8x64x64xf16, #sa").replace(
            "memdesc<3x64x256xf16", "memdesc<4x64x256xf16")
        t = re.sub(r"%cs = arith\.constant 3 : i32", "%cs = arith.constant 4 : i32", t)
        t = re.sub(r"%cprev = arith\.constant 2 : i32", "%cprev = arith.constant 3 : i32", t)
        t = re.sub(r"%stages = arith\.constant 3 : i32", "%stages = arith.constant 4 : i32", t)
        t = t.replace("    %c63 = arith.constant 63 : i32\n",
                      "    %c3 = arith.constant 3 : i32\n    %c63 = arith.constant 63 : i32\n", 1)
        init = re.search(r"(    %full2 = .*\n    ttng\.init_barrier %full2.*\n"
                         r"    %empty2 = .*\n    ttng\.init_barrier %empty2.*\n)", t)
        t = t.replace(init[1], init[1] + init[1].replace("2 = ", "3 = ").replace(
            "[%c2]", "[%c3]").replace("%full2,", "%full3,").replace("%empty2,", "%empty3,"), 1)
        inval = re.search(r"(    ttng\.inval_barrier %full2 .*\n"
                          r"    ttng\.inval_barrier %empty2 .*\n)", t)
        t = t.replace(inval[1], inval[1] + inval[1].replace("%full2", "%full3").replace(
            "%empty2", "%empty3"), 1)
    head = (f"// Candidate (bench/gpu/results/h100-2026-12-06-ctatimes/candidates/chunked.py): "
            f"examples/matmul_ws_split_tmastore_f32out.tir\n// with f16 C in four 64-column "
            f"chunks, {slots} shared slots per warp group, {stages} stages.\n")
    open(dst, "w").write(head + t)


if __name__ == "__main__":
    main()
