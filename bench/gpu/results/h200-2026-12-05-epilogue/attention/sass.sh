#!/usr/bin/env bash
# Not yet run. On the device, from the repository root: the SASS of the d64 attention kernel
# (examples/attention_ws_pp_persistent_tma_d64.tir) as local_store's stmatrix (a78dd76) and
# st.shared (main) compile it, for the 1-5 % it cost (ab-tables.txt): both PTX files are here,
# made by `linlayout compile`. Prints the opcodes whose counts differ and writes both listings
# to $OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(dirname "$(ls /usr/local/cuda*/bin/ptxas | head -1)")
for v in stmatrix stshared; do
  xz -dc "$here/tma_d64_$v.ptx.xz" > "/tmp/$v.ptx"
  "$bin/ptxas" -arch=sm_90a -o "/tmp/$v.cubin" "/tmp/$v.ptx"
  "$bin/cuobjdump" -sass "/tmp/$v.cubin" > "$OUT/tma_d64_$v.sass"
  grep -oE '^\s+/\*[0-9a-f]+\*/\s+(@!?U?P[T0-9]\s+)?[A-Z][A-Z0-9_.]*' "$OUT/tma_d64_$v.sass" |
    awk '{print $NF}' |
    sed 's/\..*//' | sort | uniq -c | awk '{print $2, $1}' | sort > "/tmp/$v.ops"
done
join -a1 -a2 -e0 -o 0,1.2,2.2 /tmp/stmatrix.ops /tmp/stshared.ops | awk '$2 != $3' |
  awk '{printf "%-8s %9s %10s\n", $1, $2, $3}'
