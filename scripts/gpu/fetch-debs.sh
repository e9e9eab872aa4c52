#!/usr/bin/env bash
# Downloads the Debian 12 .deb files of attnprof's C++ dependencies into .debs/ (ignored by git).
# Run it HERE, on a machine with Debian 12's apt sources: the GPU machine has no network, so the
# lead carries .debs/ there with the `run` tool, and deps-env.sh unpacks them without root.
# Debian 12 (glibc 2.36) binaries run on the GPU machine's Ubuntu 24.04 (glibc 2.39).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
dest=${1:-$root/.debs}

# Headers, CMake configs, and the shared libraries the link and the tests load.
packages=(
  libsimdjson-dev libsimdjson14
  libisal-dev libisal2
  libcli11-dev
  libfmt-dev libfmt9
  libgtest-dev libgmock-dev googletest
  libbenchmark-dev libbenchmark1debian
  # The top-level CMakeLists calls find_package(PkgConfig REQUIRED); the GPU machine may lack it.
  pkgconf pkgconf-bin libpkgconf3
  # The release preset's generator, in case the GPU machine has no ninja of its own.
  ninja-build
)

mkdir -p "$dest"
cd "$dest"
# Keep one version of each package: a stale .deb would be unpacked too.
rm -f ./*.deb
# apt warns that it downloads "unsandboxed as root" when run as root: true, and harmless here.
apt-get download "${packages[@]}" 2> >(grep -v 'unsandboxed' >&2) >/dev/null
debs=(./*.deb)
count=${#debs[@]}
if ((count != ${#packages[@]})); then
  echo "fetch-debs.sh: expected ${#packages[@]} .deb files in $dest, got $count" >&2
  exit 1
fi
echo "fetch-debs.sh: $count .deb files ($(du -sh . | cut -f1)) in $dest"
