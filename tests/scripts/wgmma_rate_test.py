#!/usr/bin/env python3
"""bench/gpu/wgmma_rate.py's kernels assemble for sm_90a: every case's PTX goes through ptxas,
which must accept it and must not serialize its wgmmas (a serialized case would time ptxas's
fallback, not the shape). The timing itself needs the GPU machine. Exits 77 (skipped) without
ptxas.

    wgmma_rate_test.py
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "gpu"))
import wgmma_rate  # noqa: E402


def ptxas():
    for p in (os.environ.get("LINLAYOUT_PTXAS"), shutil.which("ptxas"),
              "/usr/local/cuda/bin/ptxas"):
        if p and os.path.exists(p):
            return p
    return None


def main():
    exe = ptxas()
    if not exe:
        print("skipped: no ptxas (the CUDA toolkit's) to assemble the cases with")
        return 77
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in wgmma_rate.CASES:
            path = os.path.join(tmp, "case.ptx")
            with open(path, "w") as f:
                f.write(wgmma_rate.ptx(case))
            r = subprocess.run([exe, "-arch=sm_90a", "-v", path, "-o", path + ".cubin"],
                               capture_output=True, text=True)
            log = r.stdout + r.stderr
            ok = r.returncode == 0 and "serialized" not in log and " 0 bytes spill stores" in log
            print(f"{'ok' if ok else 'FAILED'} {case.name}")
            if not ok:
                print(log)
                failed += 1
    print(f"{len(wgmma_rate.CASES) - failed} of {len(wgmma_rate.CASES)} cases assemble")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
