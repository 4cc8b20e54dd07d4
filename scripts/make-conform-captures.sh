#!/usr/bin/env bash
# Records captures/conform/: the client's capture and key log of conform's own
# runs of some suites/rfc9000 cases, with and without each of their mutants,
# for `conform check` (tests/e2e/offline_check_test.cpp asserts each verdict).
# Simulated time: every run gives the same decrypted timeline.
#   scripts/make-conform-captures.sh [BUILD_DIR]
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
dest=$here/captures/conform
mkdir -p "$dest"

"$build/conform" run "$here/suites/rfc9000/stream_limits.toml" --filter 'max-streams-bidi/requests' \
  --filter 'streams-blocked/publish' --out "$out" -q

# NAME  CASE FOLDER (relative to the run's --out)
while read -r name folder; do
  cp "$out/$folder/client.pcap" "$dest/$name.pcap"
  cp "$out/$folder/keys.log" "$dest/$name.keys"
  printf "client\nthe simulator's client.pcap: taken at the client's host\n" > "$dest/$name.vantage"
done <<'LIST'
max-streams-bidi-requests                    max-streams-bidi/requests
max-streams-bidi-requests-no-max-streams     max-streams-bidi/requests/@mutant-1
streams-blocked-publish                      streams-blocked/publish
streams-blocked-publish-no-streams-blocked   streams-blocked/publish/@mutant-1
streams-blocked-publish-open-fails           streams-blocked/publish/@mutant-2
streams-blocked-publish-no-max-streams       streams-blocked/publish/@mutant-3
LIST
ls -l "$dest"
