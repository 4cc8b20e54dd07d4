#!/usr/bin/env bash
# Installs the Debian packages conform needs, then configures and builds it.
#   bash scripts/setup.sh           what `conform run` needs: conform, its
#                                   plugins, conform-quic and the interop
#                                   peers' programs (target `runtime`)
#   bash scripts/setup.sh --tests   everything: also the test suite, the
#                                   sanitizer builds, the fuzzers, the
#                                   benchmarks and the tools the tests drive
# Idempotent: a second run installs nothing new and rebuilds only what
# changed. Run as root on Debian 12 (or with sudo).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${CONFORM_BUILD_DIR:-$here/build}

tests=false
case "${1:-}" in
  "") ;;
  --tests) tests=true ;;
  *) echo "usage: bash scripts/setup.sh [--tests]" >&2; exit 2 ;;
esac

# One array per purpose, one package (or a package and its companion) a
# line, so each purpose can grow without touching the others.
build_packages=(
  g++ cmake ninja-build ccache pkg-config
)
library_packages=(
  android-libboringssl-dev      # BoringSSL with the QUIC API (headers under /usr/include/android)
  libboost-dev                  # Boost.DLL (header-only)
  libboost-filesystem-dev       # Boost.DLL needs it
  libboost-test-dev             # Boost.Test: CMake's configure step looks for it
  libtomlplusplus-dev           # suites
  libpcap-dev                   # captures
  libjemalloc-dev               # conform's allocator (CMakeLists.txt says why)
  libcli11-dev libfmt-dev nlohmann-json3-dev
  libjs-chart.js                # HTML report: Chart.js is inlined into every report (read at report time)
)
# The interop peers (plugins/external/profiles, suites/interop).
peer_packages=(
  openssl                       # the certificate of each external run
  ngtcp2-client ngtcp2-server   # profile ngtcp2: gtlsclient, gtlsserver
  # profile quic-go: our peer (plugins/external/quic-go-peer), built offline
  # in GOPATH mode by CMake: Go 1.19 and quic-go 0.29 with qtls-go1-19
  golang-go golang-github-lucas-clemente-quic-go-dev
  chromium                      # profile chromium (Google quiche), HTTP/3 client
  firefox-esr libnss3-tools     # profile firefox (Mozilla neqo); certutil trusts the run's CA
  util-linux                    # unshare: browsers in a PID namespace of their own
  # profile quinn-0.9: our peer (plugins/external/quinn-peer), built offline
  # by CMake with Debian's own rustc and cargo (1.63, 1.65; a rustup
  # toolchain elsewhere on PATH is not used) from Debian's crates
  rustc cargo librust-quinn-dev librust-tokio-dev librust-rustls-dev librust-rustls-pemfile-dev
)
# What the test suite adds (--tests).
test_packages=(
  clang libclang-rt-14-dev      # fuzz tests (tests/fuzz): libFuzzer and the sanitizer runtimes
  tshark                        # the interop tests read captures with it too
  tcpdump                       # scripts/make-reference-captures.sh (tests read the committed files)
  # (chromium, a peer above, also runs the HTML report's browser test)
)

packages=("${build_packages[@]}" "${library_packages[@]}" "${peer_packages[@]}")
$tests && packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -q
  $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
if $tests; then
  cmake --build "$build_dir" -j "$(nproc)"
else
  cmake --build "$build_dir" -j "$(nproc)" --target runtime
fi

# --- Third-party QUIC stacks from npm (the external plugin's lsquic, quiche
# and quinn-0.11 profiles; docs/interop.md) ---
# Pinned by plugins/external/peers/package-lock.json and installed from it
# into the build's peers/ folder (never globally), beside the peer scripts the
# build copies there. `npm install` with the lock, not `npm ci`: ci refuses
# this lock because @matrixai/quic 2.0.9 names optional platform packages
# (darwin, win32) that were never published at that version. Node.js: the
# machine's if it has one, else Debian's. Skipped when the installed lock is
# the committed one.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get install -y -q --no-install-recommends nodejs npm
fi
peers_src=$here/plugins/external/peers
peers_dir=$build_dir/peers
if ! cmp -s "$peers_src/package-lock.json" "$peers_dir/node_modules/.package-lock-installed.json"; then
  mkdir -p "$peers_dir"
  cp "$peers_src/package.json" "$peers_src/package-lock.json" "$peers_dir/"
  # --ignore-scripts: these packages ship their binaries; none needs a script.
  npm install --prefix "$peers_dir" --ignore-scripts --no-audit --no-fund
  cp "$peers_src/package-lock.json" "$peers_dir/node_modules/.package-lock-installed.json"
fi
