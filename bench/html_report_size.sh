#!/bin/sh
# The size of the HTML report of the whole of suites/rfc9000 (mutants
# included): the page, the JSON it embeds, and that JSON's largest parts.
# Usage: bench/html_report_size.sh [BUILD_DIR]   (default: build)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/conform" run "$here/suites/rfc9000" -j 2 -q --out "$out/runs" --json "$out/report.json" \
  --html "$out/report.html" > /dev/null
python3 - "$out/report.html" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = re.search(r'<script id="conform-data" type="application/json">(.*?)</script>', page, re.S).group(1)
size = lambda x: len(json.dumps(x, separators=(",", ":"), ensure_ascii=False).encode())
doc = json.loads(data)
print(f"page {len(page.encode())} bytes, embedded JSON {len(data.encode())} bytes")
parts = {"report": size(doc["report"])}
if "strings" in doc: parts["strings"] = size(doc["strings"])
for view in doc["views"].values():
    for key, value in view.items(): parts["views." + key] = parts.get("views." + key, 0) + size(value)
for key, n in sorted(parts.items(), key=lambda kv: -kv[1])[:6]: print(f"  {key:<16} {n:>10}")
PY
