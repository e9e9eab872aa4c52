// How kernels are launched: persistent kernels (one block per SM, looping over tiles), and
// launches through the driver's cuLaunchKernelEx (cluster and attribute launches, used by cuDNN
// and cuBLAS on Hopper).

#include <map>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/kernels/kernel_names.h"
#include "base/format_units.h"

namespace attnprof {

void find_persistent_kernels(const FindingContext& c, std::vector<Finding>& out) {
  int r = c.typical();
  if (r < 0) return;
  std::map<std::string, std::string> kernels;  // short name -> evidence
  for (GpuActivityId id : c.activities(r)) {
    const GpuActivity& a = c.activity(id);
    const DeviceProperties* d = c.trace.device(a.device);
    if (a.kind != GpuKind::kKernel || !d || d->sm_count <= 0) continue;
    int64_t blocks = int64_t{a.grid[0]} * a.grid[1] * a.grid[2];
    if (blocks != d->sm_count) continue;
    kernels.emplace(
        short_kernel_name(c.name(id)),
        fmt::format("grid {} = {} blocks for {} SMs, block {}, {}", format_dim3(a.grid), blocks,
                    d->sm_count, format_dim3(a.block), format_duration(a.dur_ns)));
  }
  if (kernels.empty()) return;
  Finding f{FindingKind::kPersistentKernel, {}, {}, {}, static_cast<int>(c.region_count())};
  std::string names;
  for (const auto& [name, evidence] : kernels) {
    names += (names.empty() ? "" : ", ") + name;
    f.evidence.push_back(name + ": " + evidence);
  }
  f.summary = fmt::format(
      "persistent kernel(s): {} launch exactly one block per SM and loop over the "
      "work inside, so the grid does not grow with the problem",
      names);
  out.push_back(std::move(f));
}

void find_launch_kernel_ex(const FindingContext& c, std::vector<Finding>& out) {
  int r = c.typical();
  if (r < 0) return;
  std::map<std::string, int> kernels;
  for (GpuActivityId id : c.activities(r))
    if (c.activity(id).kind == GpuKind::kKernel && c.launch_api(id) == "cuLaunchKernelEx")
      ++kernels[short_kernel_name(c.name(id))];
  if (kernels.empty()) return;
  Finding f{FindingKind::kLaunchKernelEx, {}, {}, {}, static_cast<int>(c.region_count())};
  int total = 0;
  for (const auto& [name, n] : kernels) {
    total += n;
    f.evidence.push_back(fmt::format("{} x {}", n, name));
  }
  f.summary = fmt::format(
      "{} kernel launch(es) per region go through the driver's cuLaunchKernelEx "
      "(launch attributes such as thread-block clusters), not cudaLaunchKernel; "
      "Kineto cannot estimate their occupancy and writes 0",
      total);
  out.push_back(std::move(f));
}

}  // namespace attnprof
