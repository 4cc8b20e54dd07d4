#!/usr/bin/env bash
# Rewrites the generated sections of the docs from the declarations in the
# code. Each row of SECTIONS is a `conform` command, the doc it writes into
# and the NAME of the section, which lies between the lines
# `<!-- generated: NAME -->` and `<!-- end generated: NAME -->`.
#
#   scripts/update-docs.sh [--check] [BUILD_DIR]     (BUILD_DIR: build)
#
# --check changes nothing and exits 1 naming the doc and the first line that
# differs from the generated text. DOCS_ROOT=<folder> reads and writes the
# docs of another tree (the tests use a copy).
set -euo pipefail

SECTIONS=(
  # command                        | doc             | section
  "plugins --markdown network      | docs/suites.md  | network"
  "plugins --markdown selectors    | docs/suites.md  | selectors"
  "plugins --markdown knobs-quic   | docs/plugins.md | knobs-quic"
  "checks --markdown               | docs/checks.md  | checks"
  # the last whole interop run, kept by scripts/update-interop-matrix.sh
  "report docs/interop-last-run.json --markdown - | docs/interop.md | interop-behaviours"
)

check=0
if [[ "${1:-}" == --check ]]; then check=1; shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
docs_root=$(cd "${DOCS_ROOT:-$root}" && pwd)
cd "$docs_root"  # the commands name files of the docs (docs/interop-last-run.json)
export CONFORM_PLUGIN_PATH="$build/plugins"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }

status=0
for row in "${SECTIONS[@]}"; do
  IFS='|' read -r cmd doc name <<<"$row"
  cmd=$(trim "$cmd"); doc=$(trim "$doc"); name=$(trim "$name")
  file="$docs_root/$doc"
  read -r -a argv <<<"$cmd"
  generated=$("$build/conform" "${argv[@]}")
  if ! grep -qxF "<!-- generated: $name -->" "$file" || ! grep -qxF "<!-- end generated: $name -->" "$file"; then
    echo "$doc: no section '$name' (lines <!-- generated: $name --> and <!-- end generated: $name -->)" >&2
    exit 2
  fi
  GENERATED=$generated awk -v begin="<!-- generated: $name -->" -v end="<!-- end generated: $name -->" '
    $0 == begin { print; print ENVIRON["GENERATED"]; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }' "$file" >"$tmp"
  if cmp -s "$file" "$tmp"; then continue; fi
  if ((check)); then
    line=$( (cmp "$file" "$tmp" || true) | sed -n 's/.* line \([0-9]*\).*/\1/p')
    echo "$doc:$line: section '$name' differs from \`conform $cmd\`; run scripts/update-docs.sh" >&2
    echo "  committed: $(sed -n "${line}p" "$file")" >&2
    echo "  generated: $(sed -n "${line}p" "$tmp")" >&2
    status=1
  else
    cp "$tmp" "$file"
    echo "updated $doc ($name)"
  fi
done
exit $status
