#pragma once
// What every subcommand prints: its output on standard output, its errors on stderr, both safe
// (docs/SECURITY.md). An error names a file or a name that came from a trace, so it is escaped
// (render/display_text.h) like every report. A failed write (a full disk, /dev/full, a closed
// descriptor) is one line and exit code 2; a reader that went away (`| head`) ends quietly.

#include <string>
#include <string_view>

#include "attnprof/result.h"

namespace attnprof::cli {

// "attnprof: MESSAGE" on stderr, with its control bytes escaped.
void print_error(std::string_view message);
// print_error, then the exit code of bad input: 2.
int fail(const Error& error);

// Writes `text` to `path` ("-": standard output) as io/output_file.h does. Returns 0, or 2 after
// one line on stderr (none when the reader of a pipe went away).
int write_command_output(std::string_view text, const std::string& path = "-");

// After a failed write to standard output by other means (the streamed JSON): one line naming
// `error` (an errno), none for a broken pipe; returns 2.
int standard_output_failed(int error);

// Whether --quiet was given: no progress line, and `check` prints nothing on standard output.
bool quiet();
void set_quiet(bool quiet);

}  // namespace attnprof::cli
