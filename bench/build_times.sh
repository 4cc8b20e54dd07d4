#!/usr/bin/env bash
# The change-build-test loop, timed (issue 31). From clones of this
# checkout's HEAD, with a compiler cache and Go/cargo caches that start
# empty (XDG_CACHE_HOME and CCACHE_DIR point into WORK, so the machine's own
# caches are neither used nor touched):
#   1. cold: README command 1's build (scripts/setup.sh: the `runtime`
#      target), then command 2's (setup.sh --tests: everything else)
#   2. a second clone in another folder, everything, with the cache warm
#   3. incremental: one check's .cpp changed (a comment line appended, so
#      ccache cannot serve it), rebuild and relink
#   4. ctest -L quick, then the whole ctest (-j2), in the second clone
# The Debian packages must be installed already (a first setup.sh did it):
# apt's time is not in these figures. setup.sh's npm install of the npm
# peers (a few seconds) is, with its own cache in WORK too. It measures the
# commit checked out (HEAD), so it refuses to run with uncommitted changes.
# Usage: bench/build_times.sh [WORK]   (default: a fresh folder under /tmp;
#        WORK is removed first)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/conform-build-times}
if [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
  echo "build_times.sh: $here has uncommitted changes; it times HEAD, so commit first" >&2
  exit 2
fi
rm -rf "$work"
mkdir -p "$work"
unset CONFORM_BUILD_DIR
export XDG_CACHE_HOME=$work/cache CCACHE_DIR=$work/cache/ccache npm_config_cache=$work/cache/npm

declare -a figures
seconds() {  # seconds LABEL COMMAND...: runs COMMAND, logs it, records its wall time
  local label=$1 log
  shift
  log=$work/$(echo "$label" | tr -c 'A-Za-z0-9\n' '_').log
  local start end
  start=$(date +%s.%N)
  if ! "$@" > "$log" 2>&1; then
    echo "FAILED: $label (log: $log)" >&2
    tail -20 "$log" >&2
    exit 1
  fi
  end=$(date +%s.%N)
  figures+=("$(awk -v l="$label" -v s="$start" -v e="$end" 'BEGIN { printf "%-50s %7.1f s", l, e - s }')")
  echo "${figures[-1]}"
}

git clone -q "$here" "$work/a"
git clone -q "$here" "$work/b"

seconds "cold: setup.sh (runtime target)" bash "$work/a/scripts/setup.sh"
seconds "cold: setup.sh --tests (the rest)" bash "$work/a/scripts/setup.sh" --tests
echo "ccache after the cold build: $(ccache -s | grep -E 'Hits|Misses' | tr -s ' ' | tr '\n' ' ')"
ccache -z > /dev/null
seconds "second clone, warm cache: setup.sh --tests" bash "$work/b/scripts/setup.sh" --tests
echo "ccache in the second clone: $(ccache -s | grep -E 'Hits|Misses' | tr -s ' ' | tr '\n' ' ')"

check=$work/b/framework/src/check/quic/streams_blocked_sent.cpp
echo "// build_times.sh $(date +%s%N)" >> "$check"
seconds "incremental: one check changed, rebuild" cmake --build "$work/b/build" -j 2
git -C "$work/b" checkout -q -- "$check"
cmake --build "$work/b/build" -j 2 > /dev/null
quick_count=$(ctest --test-dir "$work/b/build" -N -L quick | sed -n 's/^Total Tests: //p')
all_count=$(ctest --test-dir "$work/b/build" -N | sed -n 's/^Total Tests: //p')
seconds "ctest -L quick -j2 ($quick_count of $all_count tests)" \
  ctest --test-dir "$work/b/build" -L quick -j2 --output-on-failure
seconds "ctest -j2 (all $all_count tests)" ctest --test-dir "$work/b/build" -j2 --output-on-failure

echo
echo "build_times.sh on $(nproc) cores, $(date -u +%Y-%m-%d), $(git -C "$here" rev-parse --short HEAD):"
printf '%s\n' "${figures[@]}"
