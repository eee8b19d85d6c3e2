#!/usr/bin/env bash
# Runs the Python package's pytest suite with the first interpreter that has pytest and is the
# Python version the module was built for; exits 77 (ctest's skip) saying why when none is.
# usage: run-pytest.sh PACKAGE_PARENT TESTS_DIR MAJOR.MINOR PYTHON...
set -u
pkg=$1 tests=$2 version=$3
shift 3
tried=()
for py in "$@"; do
  command -v "$py" >/dev/null 2>&1 || continue
  got=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue
  tried+=("$py ($got)")
  [ "$got" = "$version" ] || continue
  "$py" -c 'import pytest' 2>/dev/null || continue
  export PYTHONPATH="$pkg${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1
  exec "$py" -m pytest -q -p no:cacheprovider "$tests"
done
echo "python: skipped: no Python $version with pytest among: ${tried[*]:-none found}"
echo "python: install it with: apt-get install python3-pytest python3-hypothesis"
exit 77
