#include "counters.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "gzip_file.h"
#include "reader/ncu_csv.h"

extern char** environ;

namespace attnprof::bench {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMaxCsvBytes = uint64_t{256} << 20;
constexpr const char* kDefaultNcu = "/usr/local/cuda/bin/ncu";

// Runs `argv` with stdout into `out_path` and stderr into `err_path` (or both into `out_path`
// when err_path is empty); returns its exit code, or -1 when it could not start.
int run_process(const std::vector<std::string>& argv, const fs::path& out_path,
                const fs::path& err_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err_path.empty()) {
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool executable(const fs::path& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0 && !fs::is_directory(path);
}

std::optional<fs::path> on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / program;
    if (executable(candidate)) return candidate;
  }
  return std::nullopt;
}

// "Version 2025.3.1.0 (build 36398880) (public-release)" -> "2025.3.1.0"
std::string version_of(const std::string& ncu_output) {
  const auto at = ncu_output.find("Version ");
  if (at == std::string::npos) return "";
  const auto start = at + 8;
  const auto end = ncu_output.find_first_of(" \n", start);
  return ncu_output.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string trimmed_line(const std::string& log, size_t at) {
  size_t end = log.find('\n', at);
  if (end == std::string::npos) end = log.size();
  std::string line = log.substr(at, end - at);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

std::string last_line(const std::string& log) {
  size_t end = log.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  const size_t start = log.rfind('\n', end);
  return log.substr(start == std::string::npos ? 0 : start + 1,
                    end + 1 - (start == std::string::npos ? 0 : start + 1));
}

}  // namespace

Result<NcuTool> find_ncu() {
  fs::path path;
  if (const char* forced = std::getenv("ATTNPROF_NCU"); forced && *forced) {
    if (std::string(forced) == "none")
      return make_error(ErrorKind::kUsage, "ATTNPROF_NCU=none: counters turned off for this run");
    if (!executable(forced))
      return make_error(ErrorKind::kUsage, "ATTNPROF_NCU={} is not an executable file", forced);
    path = forced;
  } else if (auto found = on_path("ncu")) {
    path = *found;
  } else if (executable(kDefaultNcu)) {
    path = kDefaultNcu;
  } else {
    return make_error(
        ErrorKind::kUsage,
        "Nsight Compute (ncu) is not on PATH nor at {}; install it (it ships with the CUDA "
        "toolkit) or point ATTNPROF_NCU at it",
        kDefaultNcu);
  }
  NcuTool tool{path.string(), ""};
  const fs::path out = fs::temp_directory_path() / fmt::format("attnprof-ncu-{}.txt", ::getpid());
  const int code = run_process({tool.path, "--version"}, out, {});
  const std::string text = read_text(out);
  std::error_code ignored;
  fs::remove(out, ignored);
  if (code != 0)
    return make_error(ErrorKind::kIo, "{} --version failed (exit {}): {}", tool.path, code,
                      last_line(text));
  tool.version = version_of(text);
  return tool;
}

std::vector<std::string> child_arguments(const CounterChild& child) {
  const Problem& p = child.problem;
  std::vector<std::string> args = {"bench",
                                   "--counters-child",
                                   child.target,
                                   "--batch",
                                   std::to_string(p.batch),
                                   "--heads",
                                   std::to_string(p.heads),
                                   "--seq",
                                   std::to_string(p.seq),
                                   "--head-dim",
                                   std::to_string(p.head_dim),
                                   "--kv-heads",
                                   std::to_string(p.kv_heads),
                                   "--q-seq",
                                   std::to_string(p.q_seq),
                                   "--window",
                                   std::to_string(p.window),
                                   "--dtype",
                                   std::string(name(p.dtype)),
                                   "--mask",
                                   std::string(name(p.mask)),
                                   "--seed",
                                   std::to_string(child.seed),
                                   "--quiet"};
  if (p.backward) args.emplace_back("--backward");
  if (!child.custom.empty()) {
    args.emplace_back("--custom");
    args.push_back(child.custom);
  }
  return args;
}

NcuFailure explain_ncu_log(const std::string& log, int exit_code) {
  if (log.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    return {
        "hardware counters are not permitted for this user (ERR_NVGPUCTRPERM): run as root, "
        "or let users read them (the nvidia module's NVreg_RestrictProfilingToAdminUsers=0)",
        true};
  }
  if (const auto at = log.find("==ERROR=="); at != std::string::npos) {
    const std::string line = trimmed_line(log, at);
    // An error about the device or the profiler itself will repeat for every variant.
    const bool machine = line.find("not supported") != std::string::npos ||
                         line.find("Unsupported") != std::string::npos ||
                         line.find("Failed to initialize") != std::string::npos ||
                         line.find("Failed to connect") != std::string::npos ||
                         line.find("metric") != std::string::npos;
    return {"ncu: " + line.substr(10), machine};
  }
  if (log.find("No kernels were profiled") != std::string::npos)
    return {"ncu profiled no kernel in the call's range", false};
  if (exit_code != 0) {
    const std::string line = last_line(log);
    return {fmt::format("the profiled run exited with {}{}{}", exit_code, line.empty() ? "" : ": ",
                        line),
            exit_code < 0};
  }
  return {"", false};
}

CounterMeasurement measure_counters(const NcuTool& ncu, const CounterChild& child,
                                    const fs::path& csv_path, const fs::path& scratch) {
  CounterMeasurement m;
  const auto start = std::chrono::steady_clock::now();
  std::error_code error;
  fs::create_directories(scratch, error);
  const fs::path report = scratch / (child.target + ".ncu-rep");
  const fs::path log = scratch / (child.target + ".log");
  std::string metrics;
  for (const std::string& name : ncu_metric_names()) metrics += (metrics.empty() ? "" : ",") + name;

  std::vector<std::string> argv = {ncu.path,
                                   "--profile-from-start",
                                   "off",
                                   "--clock-control",
                                   "none",
                                   "--metrics",
                                   metrics,
                                   "--export",
                                   report.string(),
                                   "--force-overwrite",
                                   "--",
                                   fs::read_symlink("/proc/self/exe", error).string()};
  for (std::string& a : child_arguments(child)) argv.push_back(std::move(a));
  const int code = run_process(argv, log, {});
  const std::string log_text = read_text(log);
  NcuFailure failure = explain_ncu_log(log_text, code);
  if (failure.reason.empty() && !fs::exists(report))
    failure = {"ncu wrote no report: " + last_line(log_text), false};
  if (!failure.reason.empty()) {
    m.error = failure.reason;
    m.stops_the_run = failure.machine;
  } else {
    const fs::path plain = scratch / (child.target + ".csv");
    const int imported = run_process(
        {ncu.path, "--import", report.string(), "--csv", "--page", "raw", "--print-units", "base"},
        plain, scratch / (child.target + ".import.log"));
    Status gzipped = Status::success();
    if (imported == 0) gzipped = gzip_file(plain.string(), csv_path.string());
    fs::remove(plain, error);
    if (imported != 0) {
      m.error = fmt::format("ncu --import exited with {}: {}", imported,
                            last_line(read_text(scratch / (child.target + ".import.log"))));
    } else if (!gzipped.ok()) {
      m.error = gzipped.error().message;
    } else if (auto kernels = read_ncu_csv(csv_path.string(), kMaxCsvBytes); !kernels.ok()) {
      m.error = kernels.error().message;
    } else if (kernels->empty()) {
      m.error = "ncu profiled no kernel in the call's range";
    } else {
      m.kernels = std::move(*kernels);
    }
  }
  // One file at a time: std::filesystem::remove_all is bound to the copy that libtorch.so exports,
  // which crashes on a folder with files in it (bench/tests/gpu_test_support.h).
  for (const fs::path& file : {report, log, scratch / (child.target + ".import.log")})
    fs::remove(file, error);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return m;
}

}  // namespace attnprof::bench
