#include "attnprof_bench/bench_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "attnprof_bench/bench_flags.h"
#include "counted_call.h"
#include "custom_kernel_loader.h"
#include "device_info.h"
#include "study.h"
#include "sweep.h"
#include "trace_problems.h"

namespace attnprof::bench {
namespace {

Result<StudyOptions> study_options(const BenchFlags& flags) {
  StudyOptions options;
  options.problem = flags.problem;
  if (flags.kv_heads < 0 || flags.q_seq < 0)
    return make_error(ErrorKind::kUsage, "--kv-heads and --q-seq must be positive");
  fill_defaults(options.problem, flags.kv_heads, flags.q_seq);
  const auto dtype = parse_dtype(flags.dtype);
  if (!dtype)
    return make_error(ErrorKind::kUsage, "--dtype {}: expected bf16, fp16 or fp32", flags.dtype);
  options.problem.dtype = *dtype;
  const auto device = parse_device(flags.device);
  if (!device)
    return make_error(ErrorKind::kUsage, "--device {}: expected cuda or cpu", flags.device);
  options.problem.device = *device;

  // --causal/--no-causal is the short form of --mask causal/none; both may be given if they agree.
  options.problem.mask = flags.causal ? MaskKind::kCausal : MaskKind::kNone;
  if (!flags.mask.empty()) {
    const auto mask = parse_mask(flags.mask);
    if (!mask)
      return make_error(ErrorKind::kUsage, "--mask {}: expected causal, none or explicit",
                        flags.mask);
    const bool causal_given = flags.causal_flag && flags.causal_flag->count() > 0;
    if (causal_given && (*mask == MaskKind::kNone) == flags.causal) {
      return make_error(ErrorKind::kUsage, "--mask {} contradicts --{}", flags.mask,
                        flags.causal ? "causal" : "no-causal");
    }
    options.problem.mask = *mask;
  }

  if (flags.variants.empty() || (flags.variants.size() == 1 && flags.variants[0] == "all")) {
    for (Variant v : kAllVariants) {
      // On the CPU, by default only what PyTorch has there; named explicitly, the others show as
      // unsupported.
      if (options.problem.device == DeviceKind::kCuda || runs_on_cpu(v))
        options.variants.push_back(v);
    }
  } else {
    for (const std::string& text : flags.variants) {
      const auto variant = parse_variant(text);
      if (!variant)
        return make_error(ErrorKind::kUsage, "--variants: unknown variant `{}` ({} or all)", text,
                          variant_list());
      if (std::find(options.variants.begin(), options.variants.end(), *variant) !=
          options.variants.end()) {
        return make_error(ErrorKind::kUsage, "--variants: `{}` is listed twice", text);
      }
      options.variants.push_back(*variant);
    }
  }

  // Opened here, before any GPU work: a wrong path or library is one line and exit code 2.
  for (const std::string& text : flags.custom) {
    Result<CustomKernel> kernel = parse_custom_kernel(text);
    if (!kernel.ok()) return kernel.take_error();
    for (const CustomKernel& other : options.custom_kernels) {
      if (other.name == kernel->name)
        return make_error(ErrorKind::kUsage,
                          "--custom {}: a row is named `{}` already; name this one with NAME=PATH",
                          text, other.name);
    }
    Result<CustomKernel> loaded = load_custom_kernel(std::move(*kernel));
    if (!loaded.ok()) return loaded.take_error();
    options.custom_kernels.push_back(std::move(*loaded));
  }

  for (const std::string& text : flags.sweeps) {
    Result<SweepAxis> axis = parse_sweep(text);
    if (!axis.ok()) return axis.take_error();
    for (const SweepAxis& other : options.sweeps) {
      if (other.key == axis->key)
        return make_error(ErrorKind::kUsage, "--sweep {}: `{}` is swept twice", text, other.key);
    }
    options.sweeps.push_back(std::move(*axis));
  }
  if (!flags.region.empty() && flags.from_trace.empty())
    return make_error(ErrorKind::kUsage, "--region picks the regions of --from-trace's trace");
  if (!flags.from_trace.empty()) {
    for (const CLI::Option* option : flags.problem_flags)
      if (option->count() > 0)
        return make_error(ErrorKind::kUsage,
                          "--from-trace takes the problems from the trace: {} cannot be given "
                          "with it",
                          option->get_name());
    if (!options.sweeps.empty())
      return make_error(ErrorKind::kUsage, "--from-trace and --sweep cannot be given together");
    Result<TraceProblems> problems =
        trace_problems(flags.from_trace, flags.region, Limits{}, options.problem.device);
    if (!problems.ok()) return problems.take_error();
    options.from_trace = std::move(*problems);
  }
  // Every point's shape, checked before anything runs.
  for (const Problem& point : expand_sweep(options.problem, options.sweeps)) {
    const std::string error = shape_error(point);
    if (!error.empty()) {
      const bool swept = !options.sweeps.empty();
      return make_error(ErrorKind::kUsage, "{}{}", error,
                        swept ? " (at the sweep's point " + point_label(point) + ")" : "");
    }
  }

  options.settings = flags.settings;
  const RunSettings& s = options.settings;
  if (!(s.time_budget_s > 0))
    return make_error(ErrorKind::kUsage, "--time-budget must be more than 0 seconds");
  if (s.min_reps < 1 || s.max_reps < s.min_reps) {
    return make_error(ErrorKind::kUsage,
                      "--min-reps must be at least 1 and --max-reps at least --min-reps");
  }
  if (s.trace_iterations < 0)
    return make_error(ErrorKind::kUsage, "--trace-regions must be 0 (no trace) or more");
  // A fresh seed per run unless one is given; it is printed, so any run can be repeated.
  options.settings.seed =
      flags.seed ? *flags.seed : (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  if (flags.out.empty()) return make_error(ErrorKind::kUsage, "--out must name a folder");
  options.out_dir = flags.out;
  options.quiet = flags.quiet;
  if (!flags.expectations.empty()) {
    std::vector<std::string> custom_names;
    for (const CustomKernel& kernel : options.custom_kernels) custom_names.push_back(kernel.name);
    auto expectations = load_study_expectations(flags.expectations, custom_names);
    if (!expectations.ok()) return expectations.take_error();
    options.expectations_file = flags.expectations;
    options.expectations = std::move(*expectations);
  }
  options.report = flags.report;
  options.counters = flags.counters;
  if (flags.counters && options.problem.device != DeviceKind::kCuda)
    return make_error(ErrorKind::kUsage,
                      "--counters needs --device cuda (Nsight Compute counts GPU kernels)");
  return options;
}

// The child that `--counters` runs under ncu: one profiled call, nothing on stdout; a reason on
// stderr and exit code 1 when it cannot run.
int run_counters_child(const BenchFlags& flags) {
  Result<StudyOptions> options = study_options(flags);
  if (!options.ok()) {
    std::fprintf(stderr, "attnprof bench: %s\n", options.error().message.c_str());
    return kExitUsage;
  }
  std::string error;
  if (flags.counters_child == "copy") {
    measure_copy_bandwidth(true, error);
  } else if (const auto variant = parse_variant(flags.counters_child)) {
    error = run_counted_call(*variant, options->problem, options->settings.seed);
  } else if (const auto kernel = std::find_if(
                 options->custom_kernels.begin(), options->custom_kernels.end(),
                 [&](const CustomKernel& k) { return k.name == flags.counters_child; });
             kernel != options->custom_kernels.end()) {
    error = run_counted_call(*kernel, options->problem, options->settings.seed);
  } else {
    error = "--counters-child " + flags.counters_child + ": not a variant nor copy";
  }
  if (error.empty()) return kExitAllRan;
  std::fprintf(stderr, "attnprof bench: %s\n", error.c_str());
  return kExitVariantFailed;
}

int run_bench(const BenchFlags& flags) {
  if (!flags.counters_child.empty()) return run_counters_child(flags);
  Result<StudyOptions> options = study_options(flags);
  if (!options.ok()) {
    std::fprintf(stderr, "attnprof bench: %s\n", options.error().message.c_str());
    return kExitUsage;
  }
  try {
    return run_study(*options);
  } catch (const std::exception& e) {
    // run_variant stops LibTorch's exceptions per variant; this is for the rest (bad_alloc, a
    // filesystem error), so that none escapes to main.
    std::fprintf(stderr, "attnprof bench: %s\n", e.what());
    return kExitVariantFailed;
  }
}

}  // namespace

void register_bench_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd = app.add_subcommand("bench", kBenchDescription);
  add_bench_flags(*cmd, *flags);
  cmd->callback([flags, &exit_code] { exit_code = run_bench(*flags); });
}

std::string version_lines() {
  const LibraryVersions v = library_versions();
  auto or_none = [](const std::string& text) { return text.empty() ? std::string("none") : text; };
  return fmt::format("LibTorch {}\nCUDA runtime {}\ncuDNN {}\n", or_none(v.torch),
                     or_none(v.cuda_runtime), or_none(v.cudnn));
}

}  // namespace attnprof::bench
