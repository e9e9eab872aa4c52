#pragma once
// Running out of memory is bad input like any other: one line on standard error that says what
// ran out and which limits to lower, and exit 2, never `terminate called after throwing an
// instance of 'std::bad_alloc'` and SIGABRT. The command's boundary (main) catches std::bad_alloc
// from the command's own thread; a reading or analyzing thread's goes to std::terminate, whose
// handler says the same line.

#include <string_view>

namespace attnprof::cli {

// Remembers the command's name for the line, and sets the terminate handler.
void handle_out_of_memory(std::string_view command);

// Writes the line, without allocating; returns the exit status (2).
int say_out_of_memory();

}  // namespace attnprof::cli
