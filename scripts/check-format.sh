#!/usr/bin/env bash
# Fails when a C++ file of the repository is not as clang-format-19 writes it (.clang-format).
# Fix with: git ls-files '*.cpp' '*.h' | xargs clang-format-19 -i
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-19 || true)
if [ -z "$fmt" ]; then
  echo "check-format: clang-format-19 is missing; scripts/install-deps.sh installs it" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h')
else
  mapfile -t files < <(find . -path ./build -prune -o \( -name '*.cpp' -o -name '*.h' \) -print)
fi
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: ${#bad[@]} file(s) differ from clang-format-19's output:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "fix with: clang-format-19 -i FILE..." >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
