#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12 system, timed (issue 31):
# a minimal bookworm made by debootstrap in WORK/root, entered with chroot,
# holding only what a clone needs (git, ca-certificates) and the machine's
# resolver and local CA certificates and Debian 12's own apt sources (a workplace whose
# egress goes through a TLS proxy has its CA there; npm needs it). Nothing
# of the project is installed: setup.sh's apt-get installs it all, g++,
# cmake and Node.js included, which a new machine of this kind may have
# already; so the figures are an upper bound for it. Then, as the README
# says, command 1 (setup.sh, then conform run suites/rfc9000) and command 2
# (setup.sh --tests, then the whole ctest), each timed, and both together.
# It measures the commit checked out (HEAD) and refuses uncommitted changes.
# Needs root (debootstrap, chroot, mounts) and Debian's debootstrap, which it
# installs if missing. It binds /proc, /sys and /dev into the new system and
# unmounts them on exit.
# Usage: sudo bash bench/fresh_machine.sh WORK   (a new folder, or an earlier
#        run's, which is removed first)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: bash bench/fresh_machine.sh WORK}
root=$work/root
[ "$(id -u)" -eq 0 ] || { echo "fresh_machine.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
if [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
  echo "fresh_machine.sh: $here has uncommitted changes; it times HEAD, so commit first" >&2
  exit 2
fi
case "$(realpath -m "$work")" in
  / | "$(realpath -m "$HOME")" | "$here" | "$here"/*)
    echo "fresh_machine.sh: WORK must be a folder of its own, not /, your home or the checkout" >&2
    exit 2 ;;
esac
if [ -e "$work" ] && [ ! -f "$work/debootstrap.log" ]; then
  echo "fresh_machine.sh: $work exists and is no earlier run's folder (no debootstrap.log); give a new folder" >&2
  exit 2
fi
if ! command -v debootstrap > /dev/null; then
  apt-get update -q > /dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap > /dev/null
fi

unmount() { umount -R "$root/proc" "$root/sys" "$root/dev" 2> /dev/null || true; }
trap unmount EXIT
unmount
# Never remove through a mount left by an earlier run (the host's /dev).
if findmnt -rn -o TARGET | grep -q "^$(realpath -m "$work")/"; then
  echo "fresh_machine.sh: something is still mounted under $work; unmount it first" >&2
  exit 2
fi
rm -rf --one-file-system "$work"
mkdir -p "$work"

echo "debootstrap (minbase bookworm) into $root ..."
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian > "$work/debootstrap.log" 2>&1
printf '%s\n' "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian bookworm-updates main" \
  "deb http://deb.debian.org/debian-security bookworm-security main" > "$root/etc/apt/sources.list"
cp /etc/resolv.conf /etc/hosts "$root/etc/"
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2> /dev/null || true
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
chroot "$root" bash -c 'apt-get update -q > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  --no-install-recommends git ca-certificates > /dev/null && update-ca-certificates > /dev/null'
git clone -q "$here" "$root/root/conform"
echo "fresh system ready at $(git -C "$here" rev-parse --short HEAD); timing the README's commands ..."

cat > "$root/root/two-commands.sh" << 'EOF'
cd /root/conform
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
step() {  # step LABEL LOG COMMAND...
  local label=$1 log=$2 start
  shift 2
  start=$(now)
  if ! "$@" > "$log" 2>&1; then echo "FAILED: $label (log: $log)"; tail -20 "$log"; exit 1; fi
  printf '%-44s %7s s\n' "$label" "$(since "$start")"
}
all=$(now)
step "command 1: setup.sh" /root/cmd1-setup.log bash scripts/setup.sh
step "command 1: conform run suites/rfc9000" /root/cmd1-run.log ./build/conform run suites/rfc9000
printf '%-44s %7s s\n' "command 1 in all" "$(since "$all")"
two=$(now)
step "command 2: setup.sh --tests" /root/cmd2-setup.log bash scripts/setup.sh --tests
step "command 2: ctest -j2" /root/cmd2-ctest.log ctest --test-dir build --output-on-failure -j2
printf '%-44s %7s s\n' "command 2 in all" "$(since "$two")"
printf '%-44s %7s s\n' "commands 1 and 2" "$(since "$all")"
tail -1 /root/cmd1-run.log
grep -E 'tests passed' /root/cmd2-ctest.log
EOF
# A clean environment, as a login on a new machine has; Node.js reads the
# system's CA list only when told to.
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt bash /root/two-commands.sh
echo "logs: $root/root/cmd{1,2}-*.log"
