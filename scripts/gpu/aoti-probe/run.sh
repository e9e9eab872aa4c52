#!/usr/bin/env bash
# The AOTInductor experiment (docs/CUSTOM_KERNELS.md) on the GPU machine, one command: package plain SDPA,
# load it in Python (child), then from C++ with torch's package loader and with the model runner
# on the package unzipped by hand. Prints each step's exit status; never fails the caller.
#   scripts/gpu/aoti-probe/run.sh WORK_DIR
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${1:-/tmp/aoti-probe}
mkdir -p "$work"
python3 "$here/make_package.py" "$work"
echo "make_package.py: exit $?"
torch_dir=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')
if g++ -std=c++17 -O1 -D_GLIBCXX_USE_CXX11_ABI=1 "$here/aoti_probe.cpp" -o "$work/aoti_probe" \
     -I"$torch_dir/include" -I"$torch_dir/include/torch/csrc/api/include" -I/usr/local/cuda/include \
     -L"$torch_dir/lib" -Wl,-rpath,"$torch_dir/lib" -ltorch -ltorch_cuda -ltorch_cpu -lc10 \
     -lc10_cuda 2>"$work/compile.log"; then
  for mode in runner reader loader; do
    "$work/aoti_probe" "$mode" "$work" 2>&1 | tail -15
    echo "aoti_probe $mode: exit ${PIPESTATUS[0]} (139 = SIGSEGV)"
  done
else
  echo "aoti_probe: compile failed"; tail -20 "$work/compile.log"
fi
