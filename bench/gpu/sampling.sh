# Sourced by clocks.sh and sustained.sh, with $out set: $bin, the folder of the binaries (BIN,
# else .carry/gpu.tgz unpacked); nvidia-smi sampling the SM clock, the power and the clock-event
# reasons every 25 ms into $out/smi.csv ($smi: its pid, to kill); and mark PHASE..., which appends
# a timestamped mark to $out/marks.txt (and prints it where marks_to_stdout is set).
# clocks_summary.py reads smi.csv and marks.txt.
bin=${BIN:-}
if [ -z "$bin" ]; then
  bin=$(mktemp -d)
  tar xzf .carry/gpu.tgz -C "$bin"
fi
q=timestamp,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu
if nvidia-smi --query-gpu=clocks_event_reasons.active --format=csv,noheader > /dev/null 2>&1; then
  q=$q,clocks_event_reasons.active
else
  q=$q,clocks_throttle_reasons.active
fi
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv,noheader
nvidia-smi --query-gpu=$q --format=csv,noheader -lms 25 > "$out/smi.csv" &
smi=$!
: > "$out/marks.txt"
mark() {
  local line
  line="MARK $(date '+%Y/%m/%d %H:%M:%S.%3N') $*"
  echo "$line" >> "$out/marks.txt"
  if [ -n "${marks_to_stdout:-}" ]; then echo "$line"; fi
}
