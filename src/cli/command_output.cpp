#include "cli/command_output.h"

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "io/output_file.h"
#include "render/display_text.h"

namespace attnprof::cli {

namespace {

bool g_quiet = false;

}  // namespace

void print_error(std::string_view message) {
  std::fprintf(stderr, "attnprof: %s\n", escape_control(message).c_str());
}

int fail(const Error& error) {
  print_error(error.message);
  return 2;
}

int write_command_output(std::string_view text, const std::string& path) {
  std::fflush(stdout);  // nothing else writes there, but stdio's buffer must come first
  Result<OutputFile> out = OutputFile::open(path);
  if (!out) return fail(out.error());
  Status written = out->write(text);
  if (written) written = out->commit();
  if (written) return 0;
  if (!out->reader_gone()) print_error(written.error().message);
  return 2;
}

int standard_output_failed(int error) {
  if (error == EPIPE) return 2;
  print_error(error == 0
                  ? std::string("cannot write to standard output")
                  : "cannot write to standard output: " + std::generic_category().message(error));
  return 2;
}

bool quiet() {
  return g_quiet;
}
void set_quiet(bool quiet) {
  g_quiet = quiet;
}

}  // namespace attnprof::cli
