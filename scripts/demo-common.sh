# Sourced by scripts/demo.sh and each scripts/demo.d/*.sh: where the build and the CLI are, and
# how a section and a note print. Usage: . "$(dirname "$0")/../demo-common.sh" "${1:-build}"
build=${1:-build}
bin=$build/bin
ll=$bin/linlayout
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
section() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }
note() { printf '\033[2m%s\033[0m\n' "$1"; }
