# Sourced, not run: makes the carried Debian 12 .deb files usable without root or network.
#   source scripts/gpu/deps-env.sh [DEBS_DIR]
# Unpacks every .deb of DEBS_DIR (default: .debs/ at the repository root, filled by
# fetch-debs.sh) into $ATTNPROF_DEPS (default /tmp/deps), points their pkg-config and CMake
# files there instead of /usr, and exports what CMake and the loader need to find them and
# LibTorch. Returns non-zero (never exits the caller's shell) when something is missing.
# shellcheck shell=bash

attnprof_deps_env() {
  local here root debs deps deb torch_prefix py f
  local -a packages
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  root=$(cd "$here/../.." && pwd)
  debs=${1:-$root/.debs}
  deps=${ATTNPROF_DEPS:-/tmp/deps}

  packages=("$debs"/*.deb)
  if [[ ! -e ${packages[0]} ]]; then
    echo "deps-env.sh: no .deb files in $debs (run scripts/gpu/fetch-debs.sh where apt works)" >&2
    return 1
  fi
  if [[ $deps != /*/* ]]; then
    echo "deps-env.sh: ATTNPROF_DEPS=$deps: expected a folder of its own, like /tmp/deps" >&2
    return 1
  fi
  # Start clean so that a package dropped from the list does not linger.
  rm -rf "$deps" && mkdir -p "$deps" || return 1
  for deb in "${packages[@]}"; do
    dpkg -x "$deb" "$deps" || { echo "deps-env.sh: cannot unpack $deb" >&2; return 1; }
  done

  # pkg-config files name /usr in prefix=, libdir= or includedir=: re-root each such value.
  while IFS= read -r -d '' f; do
    sed -i -E "s#^([A-Za-z_]+)=/usr(/|\$)#\\1=$deps/usr\\2#" "$f"
  done < <(find "$deps" -name '*.pc' -print0)
  # CMake package files compute their prefix from their own location, but some compare it with
  # the original "/usr/..." install path (the "/usr move" check); re-root every quoted /usr path
  # so that no config file can lead CMake back to the system's /usr.
  while IFS= read -r -d '' f; do
    sed -i -E "s#\"/usr(/|\")#\"$deps/usr\\1#g" "$f"
  done < <(find "$deps/usr/lib" "$deps/usr/share" -name "*.cmake" -print0)

  # LibTorch: from the Python that has torch (the GPU machine's venv), unless given.
  torch_prefix=${TORCH_PREFIX:-}
  if [[ -z $torch_prefix ]]; then
    for py in python3 /opt/torch/.venv/bin/python3; do
      torch_prefix=$("$py" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null) && break
      torch_prefix=""
    done
  fi
  if [[ -z $torch_prefix ]]; then
    echo "deps-env.sh: no Python with torch found; set TORCH_PREFIX to torch.utils.cmake_prefix_path" >&2
    return 1
  fi

  export ATTNPROF_DEPS=$deps
  export TORCH_PREFIX=$torch_prefix
  # An environment path list: colon-separated (a -D cache entry would take semicolons).
  export CMAKE_PREFIX_PATH="$deps/usr:$torch_prefix${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export PKG_CONFIG_PATH="$deps/usr/lib/x86_64-linux-gnu/pkgconfig:$deps/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$deps/usr/lib/x86_64-linux-gnu"
  # Appended, not prepended: the machine's own cmake, ninja and pkg-config win when present.
  export PATH="$PATH:$deps/usr/bin"
  # Torch's CMake files warn about every architecture otherwise; the GPU machine is an H200.
  export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
  echo "deps-env.sh: ${#packages[@]} packages in $deps; LibTorch at $torch_prefix" >&2
}

attnprof_deps_env "$@"
