#!/usr/bin/env bash
# ncu on the d64 kernels (ours at n_ctx 1024: the bench's first timed launch) and cuDNN's on the
# same shape: pipe utilisation and warp stalls. Logs to $OUT/run2.tgz.
set -uo pipefail
w=$(mktemp -d); bin=$(mktemp -d)
xz -dc .carry-run/linlayout_gpu_bench.xz > $bin/linlayout_gpu_bench; chmod +x $bin/linlayout_gpu_bench
pack() { tar czf $OUT/run2.tgz -C $w .; }
trap pack EXIT
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $ncu"
metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp16_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.sum,sm__inst_executed.sum,sm__cycles_elapsed.avg,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,sm__warps_active.avg.per_cycle_active
prof() { # NAME REGEX SKIP CMD...
  local name=$1 re=$2 skip=$3; shift 3
  timeout 240 $ncu --kernel-name regex:"$re" --launch-skip $skip --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
    --metrics $metrics -f -o $w/$name "$@" > $w/$name-run.log 2>&1
  echo "== $name ncu exit $?"
  $ncu -i $w/$name.ncu-rep --page details > $w/$name.txt 2>&1
  $ncu -i $w/$name.ncu-rep --page raw --csv --metrics $metrics > $w/$name-metrics.csv 2>&1
  rm -f $w/$name.ncu-rep
  grep -E 'Duration|SM Frequency|Issue Slots Busy|Executed Ipc Active|Stall|No Eligible|Warp Cycles Per Issued' $w/$name.txt | head -20
  cat $w/$name-metrics.csv | tail -2 | cut -c1-600
}
prof tma-d64 attention_ws_pp_persistent_tma_d64 1 $bin/linlayout_gpu_bench --only attention --variant ws-pp-persistent-tma-d64
prof chain-d64 attention_ws_pp_persistent_chain_d64 1 $bin/linlayout_gpu_bench --only attention --variant ws-pp-persistent-chain-d64
cat > $w/cudnn.py <<'PY'
import torch, torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
q, k, v = (torch.randn(512, 16, 1024, 64, device="cuda", dtype=torch.float16) for _ in range(3))
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    for _ in range(4):
        o = F.scaled_dot_product_attention(q, k, v, scale=0.125)
torch.cuda.synchronize()
print("ok", o.shape)
PY
prof cudnn-d64 '(?i)(sdpa|fmha|flash|fprop|cudnn)' 2 python3 $w/cudnn.py
grep -h -E '^\s+(==PROF==|cudnn|.*sm90)' $w/cudnn-d64-run.log | head -5
# A second and third timing of the d64 cells beside cuDNN, alternating, for the run-to-run spread.
for r in 1 2; do
  $bin/linlayout_gpu_bench --only attention --json $w/ours-$r.json --variant 'ws-pp-persistent-chain-d64,ws-pp-persistent-tma-d64,ws-pp-persistent-paired-tma-d64-causal' > $w/ours-$r.log 2>&1
  VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 python3 bench/gpu/vendor_bench.py $w/vendor-$r.json > $w/vendor-$r.log 2>&1
  cat $w/ours-$r.log; grep d64 $w/vendor-$r.log
done
