#include "cli/out_of_memory.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <system_error>

namespace attnprof::cli {

namespace {

// Fixed storage: when memory is out, nothing on the way to the message may allocate.
char command_name[32] = "attnprof";
std::terminate_handler previous_handler = nullptr;

void write_all(const char* text, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(STDERR_FILENO, text, size);
    if (n <= 0) return;
    text += n;
    size -= static_cast<size_t>(n);
  }
}

void write_text(const char* text) {
  write_all(text, std::strlen(text));
}

[[noreturn]] void on_terminate() {
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      std::_Exit(say_out_of_memory());
    } catch (const std::system_error& error) {
      // A thread whose stack could not be mapped: memory too.
      if (error.code() == std::errc::resource_unavailable_try_again)
        std::_Exit(say_out_of_memory());
    } catch (...) {
    }
  }
  if (previous_handler) previous_handler();
  std::abort();
}

}  // namespace

void handle_out_of_memory(std::string_view command) {
  const size_t n = std::min(command.size(), sizeof command_name - 1);
  std::memcpy(command_name, command.data(), n);
  command_name[n] = '\0';
  previous_handler = std::set_terminate(on_terminate);
}

int say_out_of_memory() {
  write_text("attnprof: ");
  write_text(command_name);
  write_text(
      ": out of memory: the input needs more memory than this process may take; lower "
      "--max-events, --max-event-bytes or --max-side-file-bytes (summary.json), read fewer traces "
      "at once (-j 1), or raise the memory limit (ulimit -v, the container's)\n");
  return 2;
}

}  // namespace attnprof::cli
