#!/bin/bash
# Rewrites the generated blocks of the docs from the registries they
# describe. Each entry names a `conform` command, a doc and a marker: the
# lines between `<!-- generated: MARKER -->` and `<!-- end generated:
# MARKER -->` become the command's output. A test per doc fails while the
# committed text differs (tests/e2e/checks_command_test.cpp for checks).
#
# Usage: scripts/update-docs.sh [BUILD_DIR]   (default: build)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
conform=${1:-$root/build}/conform
[ -x "$conform" ] || { echo "update-docs.sh: no conform binary at $conform (build it first)" >&2; exit 2; }

# command | doc | marker
entries=(
  "checks --markdown|docs/checks.md|checks"
)

for entry in "${entries[@]}"; do
  IFS='|' read -r command doc marker <<<"$entry"
  generated=$(mktemp)
  # shellcheck disable=SC2086  # the command is words
  "$conform" $command >"$generated"
  begin="<!-- generated: $marker -->"
  end="<!-- end generated: $marker -->"
  grep -qxF "$begin" "$root/$doc" && grep -qxF "$end" "$root/$doc" ||
    { echo "update-docs.sh: $doc has no '$begin' ... '$end' block" >&2; rm -f "$generated"; exit 2; }
  awk -v begin="$begin" -v end="$end" -v file="$generated" '
    $0 == begin { print; while ((getline line < file) > 0) print line; skipping = 1; next }
    $0 == end { skipping = 0 }
    !skipping { print }
  ' "$root/$doc" >"$root/$doc.tmp"
  mv "$root/$doc.tmp" "$root/$doc"
  rm -f "$generated"
  echo "$doc: $marker block from \`conform $command\`"
done
