#pragma once
// The Python module's diff, check and report (attnprof.diff, attnprof.check, attnprof.report,
// README.md): the CLI's commands through the same pipeline, their results as plain columns.

#include <pybind11/pybind11.h>

namespace attnprof::python {

void add_command_bindings(pybind11::module_& m);

}  // namespace attnprof::python
