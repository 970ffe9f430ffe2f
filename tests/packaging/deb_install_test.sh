#!/usr/bin/env bash
# The .deb installs and works on a fresh Debian 12 (issue 18). Slow (label slow; several minutes and a
# few hundred MB of downloads from the Debian archive): scripts/make-deb builds the package, debootstrap
# makes a minimal bookworm chroot, `apt-get install ./flowcert_*.deb` pulls the dependencies, and in the
# chroot: `flowcert --version`, a certified shipped case, `import flowcert` with Debian's python3, and
# a find_package(flowcert) downstream build. Needs root (chroot, mount) and debootstrap.
# usage: deb_install_test.sh SOURCE_DIR [MIRROR]   (default: the first Debian archive of this machine's apt sources)
set -euo pipefail
src=$(cd "$1" && pwd)
mirror=${2:-$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)}
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || { echo "no Debian mirror in the apt sources; pass one as the second argument"; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (debootstrap, chroot)"; exit 1; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
deb=$("$src/scripts/make-deb" | tail -1)
version=$(sed -n 's/^project(flowcert VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
root=$(mktemp -d /tmp/flowcert-debian12.XXXXXX)
cleanup() {
  for m in proc dev/pts dev sys; do umount -l "$root/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
t0=$(date +%s)
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log"; exit 1; }
rm -f "$root.debootstrap.log"
t1=$(date +%s)
mount -t proc proc "$root/proc"; mount --bind /dev "$root/dev"; mount --bind /dev/pts "$root/dev/pts"; mount -t sysfs sys "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
mkdir -p "$root/tmp/downstream" && cp "$src/tests/packaging/downstream/"* "$root/tmp/downstream/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
in_root apt-get update -qq
in_root apt-get install -y -qq "/tmp/$(basename "$deb")" >/dev/null
t2=$(date +%s)
in_root flowcert --version | tee /dev/stderr | grep -q "^flowcert $version "
in_root flowcert certify --cases /usr/share/flowcert/cases --only demo/sqrt2_certified --out /tmp/reports --quiet
in_root python3 -c 'import flowcert, sys; e = flowcert.integrate("var:x; fun:-x;", [1], 1); print(flowcert.__version__, e.final); sys.exit(e.status != "ok")'
in_root apt-get install -y -qq --no-install-recommends cmake g++ ninja-build >/dev/null
in_root cmake -S /tmp/downstream -B /tmp/downstream/build -G Ninja >/dev/null
in_root cmake --build /tmp/downstream/build >/dev/null
in_root /tmp/downstream/build/downstream
t3=$(date +%s)
echo "deb install test passed: debootstrap $((t1 - t0)) s, apt-get install ./$(basename "$deb") $((t2 - t1)) s, checks $((t3 - t2)) s"
