#include "custom_kernel_loader.h"

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "problem.h"

namespace attnprof::bench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kAbiDocs =
    "the ABI: bench/include/attnprof_bench/custom_attention.h, docs/CUSTOM_KERNELS.md";

// libexample_attention.so.1 -> example_attention
std::string name_from_path(std::string_view path) {
  std::string name = fs::path(path).filename().string();
  if (name.rfind("lib", 0) == 0 && name.size() > 3) name.erase(0, 3);
  if (const size_t dot = name.find('.'); dot != std::string::npos && dot > 0) name.erase(dot);
  return name;
}

bool is_aoti_package(const std::string& path) {
  return fs::path(path).extension() == ".pt2";
}

// A .pt2 is a zip archive (torch's PyTorchStreamWriter): its first bytes are a local file header.
bool starts_like_a_zip(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  return file.read(magic, sizeof magic) && std::memcmp(magic, "PK\x03\x04", 4) == 0;
}

}  // namespace

Result<CustomKernel> parse_custom_kernel(std::string_view text) {
  CustomKernel kernel;
  if (const size_t eq = text.find('='); eq != std::string_view::npos) {
    kernel.name = std::string(text.substr(0, eq));
    kernel.path = std::string(text.substr(eq + 1));
  } else {
    kernel.path = std::string(text);
    kernel.name = name_from_path(text);
  }
  if (kernel.path.empty())
    return make_error(ErrorKind::kUsage, "--custom {}: expected PATH or NAME=PATH", text);
  if (kernel.name.empty() || kernel.name.front() == '.' ||
      kernel.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789._-") != std::string::npos) {
    return make_error(ErrorKind::kUsage,
                      "--custom {}: the row's name `{}` must be letters, digits, '.', '_' or '-' "
                      "(not starting with '.'); name it with NAME=PATH",
                      text, kernel.name);
  }
  if (parse_variant(kernel.name)) {
    return make_error(ErrorKind::kUsage,
                      "--custom {}: `{}` is a built-in variant's name; name the row with NAME=PATH",
                      text, kernel.name);
  }
  return kernel;
}

Result<CustomKernel> load_custom_kernel(CustomKernel kernel) {
  const std::string& path = kernel.path;
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    return make_error(ErrorKind::kUsage, "--custom {}: {}", path,
                      fs::exists(path, error) ? "not a file" : "no such file");
  }
  if (is_aoti_package(path)) {
    if (!starts_like_a_zip(path)) {
      return make_error(ErrorKind::kUsage,
                        "--custom {}: not an AOTInductor package (a .pt2 is the zip archive that "
                        "torch._inductor.aoti_compile_and_package writes)",
                        path);
    }
    kernel.aoti_package = true;
    return kernel;
  }
  // An absolute path: dlopen searches LD_LIBRARY_PATH and the system's folders for a bare name,
  // which would not be the file just checked.
  const std::string absolute = fs::absolute(path, error).string();
  void* library = ::dlopen(absolute.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* reason = ::dlerror();
    return make_error(ErrorKind::kUsage, "--custom {}: cannot load it: {}", path,
                      reason ? reason : "dlopen failed");
  }
  const auto version = reinterpret_cast<attnprof_custom_attention_abi_version_fn>(
      ::dlsym(library, ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION_SYMBOL));
  if (!version) {
    return make_error(ErrorKind::kUsage,
                      "--custom {}: exports no `{}`, so it is not an attnprof custom kernel ({})",
                      path, ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION_SYMBOL, kAbiDocs);
  }
  if (const int32_t found = version(); found != ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION) {
    return make_error(ErrorKind::kUsage,
                      "--custom {}: built for custom-kernel ABI version {}, but this attnprof "
                      "speaks version {}: rebuild it against this attnprof's custom_attention.h",
                      path, found, ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION);
  }
  kernel.function = reinterpret_cast<attnprof_custom_attention_fn>(
      ::dlsym(library, ATTNPROF_CUSTOM_ATTENTION_SYMBOL));
  if (!kernel.function) {
    return make_error(
        ErrorKind::kUsage, "--custom {}: reports ABI version {} but exports no `{}` ({})", path,
        ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION, ATTNPROF_CUSTOM_ATTENTION_SYMBOL, kAbiDocs);
  }
  return kernel;
}

}  // namespace attnprof::bench
