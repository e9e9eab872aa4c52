#include "analysis/device_summary.h"

#include <fmt/format.h>

namespace attnprof {

DeviceSummary summarize_device(const DeviceProperties& d) {
  DeviceSummary s;
  s.id = d.id;
  s.name = d.name;
  s.sm_count = d.sm_count;
  s.compute_major = d.compute_major;
  s.compute_minor = d.compute_minor;
  const bool capability = d.compute_major >= 0 && d.compute_minor >= 0;
  std::string units = d.sm_count >= 0 ? fmt::format("{}", d.sm_count) : std::string("unknown");
  switch (d.vendor) {
    case DeviceVendor::kNvidia:
      s.vendor = "nvidia";
      if (capability) s.arch = fmt::format("sm_{}{}", d.compute_major, d.compute_minor);
      s.description =
          fmt::format("{} SMs, {}", units, s.arch.empty() ? "compute capability unknown" : s.arch);
      break;
    case DeviceVendor::kAmd:
      // HIP's major.minor (9.0 for every gfx9 part) does not name the chip: gcnArchName does.
      s.vendor = "amd";
      s.arch = d.arch_name;
      s.description =
          fmt::format("{} compute units, {}", units,
                      !s.arch.empty() ? s.arch
                      : capability    ? fmt::format("HIP compute {}.{}, gcnArchName unknown",
                                                    d.compute_major, d.compute_minor)
                                      : std::string("architecture unknown"));
      break;
    case DeviceVendor::kUnknown:
      s.description =
          fmt::format("{} compute units, {}", units,
                      capability ? fmt::format("compute {}.{}", d.compute_major, d.compute_minor)
                                 : std::string("architecture unknown"));
      break;
  }
  return s;
}

}  // namespace attnprof
