#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks on the tracked files that no compiler makes:
#   - every source file (C, C++, Python, shell, meson, CMake, wrap, cross) carries an
#     SPDX licence line;
#   - nothing points outside the repository (the project stands alone).
# Run from anywhere inside a git checkout; scripts/test.sh runs it in the native stage.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
sources=$(git ls-files | grep -E '\.(c|h|cc|py|sh|txt|in|cmake|wrap)$|(^|/)meson\.build$|meson_options\.txt$|^\.ci/run$' \
          | grep -v '^tests/fuzz/corpus/')
for f in $sources; do
  [ -L "$f" ] && continue   # a link: its target is checked
  head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT' || { echo "check-tree: $f has no SPDX line"; fail=1; }
done
if git grep -nE '\.\./share[d]|share[d]/SPEC|SPE[C]\.md' -- . ':!scripts/check-tree.sh'; then
  echo "check-tree: the lines above point outside the repository"; fail=1
fi
# docs/API.md shows the examples the suite builds as they are: a block after
# a line "<!-- tests/examples/NAME.c -->" must equal that file.
for f in $(grep -o '<!-- tests/examples/[a-z_]*\.c -->' docs/API.md | sed 's/<!-- \(.*\) -->/\1/'); do
  if ! diff -q <(awk -v m="<!-- $f -->" '$0 == m {on = 1; next} on && /^```c$/ {in_ = 1; next}
                 in_ && /^```$/ {exit} in_ {print}' docs/API.md) "$f" >/dev/null; then
    echo "check-tree: docs/API.md's copy of $f differs from the file"; fail=1
  fi
done
[ $fail -eq 0 ] && echo "check-tree: $(echo "$sources" | wc -l) source files carry an SPDX line; no reference outside the repository"
exit $fail
