#include "render/version_text.h"

#include <isa-l.h>
#include <simdjson.h>

#include <fmt/format.h>

#include "attnprof_git_description.h"

namespace attnprof {

std::string version_text() {
  return fmt::format(
      "attnprof {} (git {})\nsimdjson {}.{}.{} ({} kernels)\nISA-L {}.{}.{}\nfmt {}.{}.{}\n",
      ATTNPROF_VERSION, ATTNPROF_GIT_DESCRIPTION, int(simdjson::SIMDJSON_VERSION_MAJOR),
      int(simdjson::SIMDJSON_VERSION_MINOR), int(simdjson::SIMDJSON_VERSION_REVISION),
      simdjson::get_active_implementation()->name(), ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION,
      ISAL_PATCH_VERSION, FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100);
}

}  // namespace attnprof
