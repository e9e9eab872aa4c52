#!/usr/bin/env bash
# Fails when a C++ file of the repository does not match .clang-format (CI runs this first, from
# scripts/run-tests.sh). `scripts/check-format.sh --fix` reformats them instead.
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=clang-format-14
if ! command -v "$formatter" >/dev/null; then
  echo "check-format.sh: $formatter not found: run scripts/setup-debian.sh" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.h' '*.cpp' '*.hpp' '*.cc')
if [[ "${1:-}" == "--fix" ]]; then
  "$formatter" -i "${files[@]}"
  exit 0
fi
if ! "$formatter" --dry-run --Werror "${files[@]}" 2>/tmp/check-format.$$; then
  grep -o '^[^:]*\.\(h\|cpp\|hpp\|cc\)' /tmp/check-format.$$ | sort -u | sed 's/^/  /' >&2
  rm -f /tmp/check-format.$$
  echo "check-format.sh: these files do not match .clang-format; scripts/check-format.sh --fix" >&2
  exit 1
fi
rm -f /tmp/check-format.$$
echo "check-format.sh: ${#files[@]} C++ files match .clang-format"
