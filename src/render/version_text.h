#pragma once
// What `attnprof --version` prints of the core: its version, the commit it was built from, and
// the versions of the libraries that read traces (a bug report needs them).

#include <string>

namespace attnprof {

// "attnprof 0.1.0 (git 058e695-dirty)\nsimdjson 3.0.1 (haswell kernels)\nISA-L 2.30.0\n
// fmt 9.1.0\n": one line each.
std::string version_text();

}  // namespace attnprof
