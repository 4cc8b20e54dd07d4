#!/usr/bin/env bash
# Installs every Debian package conform needs to build, run and test, then
# configures and builds it. Idempotent: a second run installs nothing new and
# rebuilds only what changed. Run as root on Debian 12 (or with sudo).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${CONFORM_BUILD_DIR:-$here/build}

packages=(
  # build
  g++ cmake ninja-build ccache pkg-config
  # libraries
  android-libboringssl-dev      # BoringSSL with the QUIC API (headers under /usr/include/android)
  libboost-dev                  # Boost.DLL (header-only)
  libboost-filesystem-dev       # Boost.DLL needs it
  libboost-test-dev             # Boost.Test, linked as a shared library
  libtomlplusplus-dev           # suites
  libpcap-dev                   # captures
  libcli11-dev libfmt-dev nlohmann-json3-dev
  # fuzz tests (tests/fuzz): clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # reference captures: scripts/make-reference-captures.sh (tests read the committed files)
  ngtcp2-client ngtcp2-server   # gtlsclient, gtlsserver
  # the external plugin's quic-go peer (plugins/external/quic-go-peer), built
  # offline in GOPATH mode by CMake: Go 1.19 and quic-go 0.29 with qtls-go1-19
  golang-go golang-github-lucas-clemente-quic-go-dev
  tshark tcpdump openssl
  # HTML report: Chart.js is inlined into every report (read at report time)
  libjs-chart.js
  # the HTML report's browser test (tests/browser): headless Chromium
  chromium
)

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
cmake --build "$build_dir" -j "$(nproc)"

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
