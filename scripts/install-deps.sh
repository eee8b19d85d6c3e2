#!/usr/bin/env bash
# Installs the Debian packages linlayout builds and tests with. Idempotent: when everything is
# present it prints nothing and returns in well under a second.
set -euo pipefail

packages=(
  cmake ninja-build g++ make python3 ccache
  llvm-19-dev            # lower/: NVPTX backend (static libraries)
  zlib1g-dev libzstd-dev libxml2-dev libedit-dev libffi-dev libtinfo-dev  # LLVM's static link needs
  clang libclang-rt-dev  # libFuzzer for tests/fuzz
  libeigen3-dev          # reference math in tests and benchmarks
  librapidcheck-dev libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev     # the query and CLI JSON
  pybind11-dev python3-dev python3-setuptools  # python/: the Python package
  python3-pip python3-wheel                    # pip install --no-build-isolation .
  python3-pytest python3-hypothesis            # its test suite
  libcli11-dev           # the CLI's argument parser
  clang-format-19        # the format test (.clang-format)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
