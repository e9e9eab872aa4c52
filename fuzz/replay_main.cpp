// The fuzzer's main in builds without libFuzzer (g++, or clang without ATTNPROF_FUZZ): it runs
// the inputs named on the command line, files or folders of files, through the same entry point,
// so that the fuzzer always compiles and a crash file can be replayed under any build or gdb.
//
//   build/release/fuzz/trace_fuzzer tests/data/fuzz-regressions crash-1234

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "trace_fuzzer: cannot read '%s'\n", file.c_str());
    return false;
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_FOLDER...  (replays fuzzer inputs)\n", argv[0]);
    return 2;
  }
  size_t ran = 0;
  for (int i = 1; i < argc; ++i) {
    std::error_code error;
    if (std::filesystem::is_directory(argv[i], error)) {
      for (const auto& entry : std::filesystem::directory_iterator(argv[i])) {
        if (!entry.is_regular_file()) continue;
        if (!replay(entry.path())) return 2;
        ++ran;
      }
    } else {
      if (!replay(argv[i])) return 2;
      ++ran;
    }
  }
  std::printf("trace_fuzzer: %zu input(s) ran without a finding\n", ran);
  return 0;
}
