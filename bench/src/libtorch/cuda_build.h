#pragma once
// Whether the LibTorch the bench is built against has CUDA. bench/CMakeLists.txt defines
// ATTNPROF_BENCH_CUDA=1 when Torch's CMake package has the torch_cuda target; a CPU-only LibTorch
// (pip's CPU wheels) then still builds the bench, for --device cpu, instead of failing to link
// CUDA symbols.
#ifndef ATTNPROF_BENCH_CUDA
#define ATTNPROF_BENCH_CUDA 0
#endif
