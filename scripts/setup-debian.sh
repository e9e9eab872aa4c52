#!/usr/bin/env bash
# Installs what attnprof builds and tests with, from Debian 12's own packages.
# Idempotent: packages already present are not fetched again, so the README's
# commands can call it every time.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libsimdjson-dev libisal-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  gzip python3
  clang-format-14  # scripts/check-format.sh, run by scripts/run-tests.sh
  chromium  # the report's browser test (tests/browser/report_in_chromium.sh), headless
  # The Python module (python/, `import attnprof`) and its test: pandas brings numpy.
  pybind11-dev python3-dev python3-pandas python3-pytest
  # attnprof.distributed and its test (a Dask LocalCluster); pip, venv and setuptools for the
  # README's install command (pip install --no-build-isolation .).
  python3-distributed python3-pip python3-venv python3-setuptools
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup-debian.sh: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; }
  sudo="sudo"
fi
echo "setup-debian.sh: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
