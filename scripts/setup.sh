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

# --- third-party QUIC peers of suites/interop (issue 17, peers-native) ---
# Browsers as HTTP/3 clients, and quinn 0.9 built offline from Debian's Rust
# crates with Debian's own rustc/cargo (1.63/1.65; a rustup toolchain
# elsewhere on PATH is not used). Versions checked: ../shared/PEERS.md.
packages+=(
  chromium                      # Google quiche: profile chromium
  firefox-esr libnss3-tools     # Mozilla neqo: profile firefox (certutil trusts the run's CA)
  util-linux                    # unshare: browsers in a PID namespace of their own
  rustc cargo librust-quinn-dev librust-tokio-dev librust-rustls-dev librust-rustls-pemfile-dev
                                # quinn 0.9: plugins/external/quinn-peer, profile quinn-0.9
)
# --- end of the peers-native block ---

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
