#!/usr/bin/env python3
"""Every case of Triton's conversion test matrix (testing/kernels/TritonMatrix.h), shard I of N:
lowered for sm_90 and assembled by ptxas (jit_tests' TritonMatrix.Full), and held to Triton 3.6's
kernel for the same case (tests/reference/triton36-matrix-h200.jsonl.gz: Triton's compile on the
H200, registers and local bytes per case; scripts/gpu/triton_matrix.py made it). A case fails
where it does not lower or assemble, uses local memory where Triton's kernel uses none, or no
less of it than Triton's kernel where both use some. ptxas 13.0 here has given the H200 driver's
local bytes on every case run on both so far (docs/performance.md, "Triton's conversion test
matrix").
Exits 77 (skipped) without ptxas.

    triton_matrix_test.py JIT_TESTS SHARD SHARDS
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRITON = os.path.join(HERE, "..", "reference", "triton36-matrix-h200.jsonl.gz")

def ptxas_found():
    return (os.environ.get("LINLAYOUT_PTXAS") or shutil.which("ptxas")
            or os.path.exists("/usr/local/cuda/bin/ptxas"))


def main():
    jit_tests, shard, shards = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if not ptxas_found():
        print("skipped: no ptxas (the CUDA toolkit's) to assemble the cases with")
        return 77
    triton = {}
    with gzip.open(TRITON, "rt") as f:
        for line in f:
            d = json.loads(line)
            triton[d["name"]] = d
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "ours.jsonl")
        env = dict(os.environ, LINLAYOUT_TRITON_MATRIX=out,
                   LINLAYOUT_MATRIX_SHARD=f"{shard}/{shards}")
        run = subprocess.run([jit_tests, "--gtest_filter=TritonMatrix.Full"], env=env,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout[-4000:], run.stderr[-4000:])
            print(f"jit_tests exited {run.returncode}")
            return 1
        ours = [json.loads(line) for line in open(out)]
    bad = []
    for o in ours:
        name = o["name"]
        local = o["stack"] if o["stack"] > 0 else o["spill_stores"]
        t = triton.get(name)
        if not o["ok"]:
            bad.append(f"{name}: does not lower or assemble")
        elif t is None:
            bad.append(f"{name}: not in Triton's compile of the matrix")
        elif local > 0 and t["local_bytes"] == 0:
            bad.append(f"{name}: {local} bytes of local memory, Triton's kernel none")
        elif local >= t["local_bytes"] > 0:
            bad.append(f"{name}: {local} bytes of local memory, Triton's kernel "
                       f"{t['local_bytes']} (not less)")
    print(f"shard {shard}/{shards}: {len(ours)} cases, "
          f"{sum(1 for o in ours if o['stack'] or o['spill_stores'])} with local memory")
    for b in bad:
        print("FAIL", b)
    return 1 if bad or not ours else 0


if __name__ == "__main__":
    sys.exit(main())
