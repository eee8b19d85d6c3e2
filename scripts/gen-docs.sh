#!/usr/bin/env bash
# `make docs`: regenerates the command outputs and the layout pictures quoted in README.md and
# docs/ from the tool in BUILD (default build/). `--check` only reports what is out of date.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
shift || true
exec python3 "$here/scripts/gen-docs.py" "$build" "$@"
