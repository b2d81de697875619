#!/usr/bin/env bash
# check_format.sh - whether the project's C++ follows the one .clang-format at
# the top of the tree (LLVM style): lists each file clang-format would change
# and exits 1 if there is any. Changes nothing (format with clang-format -i).
#
#   tools/check_format.sh [PATH...]     (default: compiler runtime test tools)
# Environment: CLANG_FORMAT (default clang-format-16, else clang-format).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1
clang_format=${CLANG_FORMAT:-$(command -v clang-format-16 || command -v clang-format)}
if [[ -z $clang_format ]]; then
  echo "check_format: no clang-format found (set CLANG_FORMAT)" >&2
  exit 2
fi
(($#)) || set -- compiler runtime test tools
unformatted=0
while IFS= read -r file; do
  if ! "$clang_format" --dry-run -Werror "$file" >/dev/null 2>&1; then
    echo "check_format: $file"
    unformatted=$((unformatted + 1))
  fi
done < <(git ls-files -- "$@" | grep -E '\.(c|cc|cpp|h|hpp|cu|cuh)$')
if ((unformatted)); then
  echo "check_format: $unformatted file(s) differ from $("$clang_format" --version | head -n 1)"
  exit 1
fi
echo "check_format: clean"
