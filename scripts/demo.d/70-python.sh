#!/usr/bin/env bash
# Demo: the Python package (python/): Triton's LinearLayout API, Gluon's layout classes, a plan.
set -euo pipefail
. "$(dirname "$0")/../demo-common.sh" "${1:-build}"
[ -d "$build/python/linlayout" ] || exit 0
section "15. From Python: Triton's LinearLayout API, Gluon's layout classes, a conversion plan"
PYTHONPATH="$build/python" python3 - <<'PY'
import linlayout as ll
from linlayout import LinearLayout

a = LinearLayout.from_bases([("register", [[0, 1], [0, 2]]), ("lane", [[1, 0], [2, 0]])],
                            ["dim0", "dim1"])
b = LinearLayout.from_bases([("register", [[1, 0], [2, 0]]), ("lane", [[0, 1], [0, 2]])],
                            ["dim0", "dim1"])
print(">>> a.invert_and_compose(b)   # where each of a's values lives in b")
print(a.invert_and_compose(b))
src = ll.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
dst = ll.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
print(">>> ll.plan(src, dst, [128, 128], 16)")
print(ll.plan(src, dst, [128, 128], 16))
print(">>> ll.picture(ll.DotOperandLayout(0, src, 2), [16, 16])")
print(ll.picture(ll.DotOperandLayout(0, src, 2), [16, 16]))
PY
