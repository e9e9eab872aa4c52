#include "analysis/critical_path/what_if_rules.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/regions.h"
#include "analysis/top_tables.h"
#include "attnprof/region_facts.h"

namespace attnprof {

namespace {

struct SelectorName {
  std::string_view prefix;
  WhatIfSelectorKind kind;
};
constexpr SelectorName kSelectors[] = {
    {"kernel:", WhatIfSelectorKind::kKernel}, {"op:", WhatIfSelectorKind::kOp},
    {"module:", WhatIfSelectorKind::kModule}, {"class:", WhatIfSelectorKind::kClass},
    {"cpu:", WhatIfSelectorKind::kCpu},
};

std::optional<KernelClass> class_named(std::string_view name) {
  for (KernelClass c : kAllKernelClasses)
    if (kernel_class_id(c) == name) return c;
  return std::nullopt;
}

}  // namespace

Result<WhatIfRule> parse_what_if(std::string_view text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string_view::npos)
    return make_error(ErrorKind::kUsage,
                      "--what-if \"{}\": expected SELECTOR=FACTOR, such as attention=0.5", text);
  WhatIfRule rule;
  rule.text = std::string(text);
  const std::string_view selector = text.substr(0, eq);
  const std::string factor(text.substr(eq + 1));
  char* end = nullptr;
  rule.factor = std::strtod(factor.c_str(), &end);
  if (factor.empty() || end != factor.c_str() + factor.size() || !std::isfinite(rule.factor) ||
      rule.factor < 0)
    return make_error(ErrorKind::kUsage,
                      "--what-if \"{}\": the factor \"{}\" is not a number of at least 0 (0.5 is "
                      "twice as fast, 0 gone)",
                      text, factor);
  if (selector == "attention") {
    rule.kind = WhatIfSelectorKind::kAttention;
    return rule;
  }
  if (selector == "attention-cpu") {
    rule.kind = WhatIfSelectorKind::kAttentionCpu;
    return rule;
  }
  for (const SelectorName& s : kSelectors) {
    if (!selector.starts_with(s.prefix)) continue;
    rule.kind = s.kind;
    rule.pattern = std::string(selector.substr(s.prefix.size()));
    if (rule.pattern.empty())
      return make_error(ErrorKind::kUsage, "--what-if \"{}\": {} needs a name or glob", text,
                        s.prefix);
    if (rule.kind == WhatIfSelectorKind::kClass && !class_named(rule.pattern)) {
      std::vector<std::string_view> ids;
      for (KernelClass c : kAllKernelClasses) ids.push_back(kernel_class_id(c));
      return make_error(ErrorKind::kUsage, "--what-if \"{}\": no kernel class \"{}\" (one of {})",
                        text, rule.pattern, fmt::join(ids, ", "));
    }
    return rule;
  }
  return make_error(ErrorKind::kUsage,
                    "--what-if \"{}\": the selector is attention, attention-cpu, kernel:GLOB, "
                    "op:GLOB, module:GLOB, class:NAME or cpu:GLOB",
                    text);
}

void select_what_if(const Trace& trace, const std::vector<WhatIfRule>& rules,
                    const std::vector<uint8_t>& is_attention,
                    const std::vector<uint8_t>& attention_cpu, KernelShortNames& kernel_names,
                    GraphInputs& inputs) {
  inputs.activity_rules.assign(trace.gpu_activities.size(), 0);
  inputs.host_rules.assign(trace.host_events.size(), 0);
  // Each name is matched once per rule: a trace repeats a few hundred names.
  std::vector<std::vector<int8_t>> matched(rules.size());
  auto matches = [&](size_t r, StringId name, auto&& test) {
    std::vector<int8_t>& m = matched[r];
    if (m.empty()) m.assign(trace.strings.size(), -1);
    if (m[name] < 0) m[name] = test(trace.strings.view(name)) ? 1 : 0;
    return m[name] == 1;
  };
  auto host_matches = [&](size_t r, HostEventId e) {
    const WhatIfRule& rule = rules[r];
    const HostEvent& h = trace.host_events[e];
    if (rule.kind == WhatIfSelectorKind::kModule)
      return h.kind == HostKind::kPythonFunction && matches(r, h.name, [&](std::string_view n) {
               return n.starts_with(kModulePrefix) &&
                      glob_match(rule.pattern, n.substr(kModulePrefix.size()));
             });
    return (h.kind == HostKind::kCpuOp || h.kind == HostKind::kUserAnnotation) &&
           matches(r, h.name, [&](std::string_view n) { return glob_match(rule.pattern, n); });
  };
  for (size_t r = 0; r < rules.size() && r < kMaxWhatIfRules; ++r) {
    const WhatIfRule& rule = rules[r];
    const uint32_t bit = 1u << r;
    if (rule.kind == WhatIfSelectorKind::kCpu) {
      for (size_t i = 0; i < trace.host_events.size(); ++i)
        if (host_matches(r, HostEventId(i))) inputs.host_rules[i] |= bit;
      continue;
    }
    if (rule.kind == WhatIfSelectorKind::kAttentionCpu) {
      // The selected ops only: what runs under them takes their bits in the graph.
      for (size_t i = 0; i < attention_cpu.size(); ++i)
        if (attention_cpu[i]) inputs.host_rules[i] |= bit;
      continue;
    }
    const std::optional<KernelClass> cls =
        rule.kind == WhatIfSelectorKind::kClass ? class_named(rule.pattern) : std::nullopt;
    for (size_t i = 0; i < trace.gpu_activities.size(); ++i) {
      const GpuActivity& a = trace.gpu_activities[GpuActivityId(i)];
      if (!is_gpu_work(a.kind)) continue;
      bool selected = false;
      switch (rule.kind) {
        case WhatIfSelectorKind::kAttention:
          selected = !is_attention.empty() && is_attention[i];
          break;
        case WhatIfSelectorKind::kKernel:
          selected = matches(r, a.name, [&](std::string_view n) {
            return glob_match(rule.pattern, n) ||
                   (a.kind == GpuKind::kKernel &&
                    glob_match(rule.pattern, kernel_names.of(trace.strings, a.name)));
          });
          break;
        case WhatIfSelectorKind::kClass:
          selected = cls && (*inputs.class_of)[i] == static_cast<uint8_t>(*cls);
          break;
        case WhatIfSelectorKind::kOp:
        case WhatIfSelectorKind::kModule:
          for (HostEventId e = trace.activity_op[GpuActivityId(i)]; e != kNoId && !selected;
               e = trace.host_parent[e])
            selected = host_matches(r, e);
          break;
        case WhatIfSelectorKind::kCpu:
        case WhatIfSelectorKind::kAttentionCpu:
          break;
      }
      if (selected) inputs.activity_rules[i] |= bit;
    }
  }
}

}  // namespace attnprof
