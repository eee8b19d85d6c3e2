#!/usr/bin/env bash
# The Python package on the GPU machine, whose python3 is CPython 3.12 with torch and Triton.
#   here:  bash scripts/gpu/python.sh pack [DEST_REPO [CARRY]]   builds _core and _jit for
#          CPython 3.12 (pyenv's 3.12 headers; build312/), strips them and the CLI, packs
#          DEST_REPO/CARRY/ (default .carry-python)
#   there: bash CARRY/python.sh run                            (device tool: carry [CARRY])
# `run` unpacks them, runs python/tests (the GPU launch tests included) and
# bench/python/invert_and_compose.py against Triton's binding; logs and figures go to $OUT.
set -uo pipefail
case "${1:-}" in
pack)
  set -e
  cd "$(dirname "$0")/../.."
  dest=${2:-.}
  carry=${3:-.carry-python}
  py=${PYTHON312:-$(ls -d /root/.pyenv/versions/3.12*/bin/python3.12 | head -1)}
  cmake -S . -B build312 -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLINLAYOUT_BUILD_TESTS=OFF \
    -DLINLAYOUT_BUILD_BENCH=OFF -DPython_EXECUTABLE="$py" >/dev/null
  cmake --build build312 -j "${JOBS:-2}" --target _core _jit linlayout
  stage=$(mktemp -d)
  cp -r build312/python/linlayout "$stage/"
  find "$stage" -name __pycache__ -prune -exec rm -rf {} +
  strip "$stage"/linlayout/*.so
  mkdir -p "$dest/$carry"
  tar czf "$dest/$carry/py312.tgz" -C "$stage" linlayout
  strip -o "$stage/linlayout-cli" build312/bin/linlayout
  gzip -c "$stage/linlayout-cli" > "$dest/$carry/linlayout.gz"
  cp "$0" "$dest/$carry/python.sh"
  rm -rf "$stage"
  du -sh "$dest/$carry" ;;
run)
  here=$(cd "$(dirname "$0")" && pwd)
  mkdir -p /tmp/py /tmp/bin
  tar xzf "$here/py312.tgz" -C /tmp/py
  gunzip -c "$here/linlayout.gz" > /tmp/bin/linlayout && chmod +x /tmp/bin/linlayout
  export PYTHONPATH=/tmp/py PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
  export LINLAYOUT_BIN=/tmp/bin/linlayout LINLAYOUT_SHARED_DIR=/nonexistent
  python3 -c 'import sys, torch, triton; print(sys.version.split()[0], torch.__version__, triton.__version__, torch.cuda.get_device_name(0))'
  python3 -m pytest -q -p no:cacheprovider python/tests -rs 2>&1 | tee "$OUT/pytest.log" | tail -25
  python3 bench/python/invert_and_compose.py --json "$OUT/bench.json" 2>&1 | tee "$OUT/bench.txt" ;;
*)
  echo "usage: $0 pack [DEST_REPO] | run" >&2
  exit 2 ;;
esac
