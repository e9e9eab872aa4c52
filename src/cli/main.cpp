#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <new>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/did_you_mean.h"
#include "cli/limit_options.h"
#include "cli/out_of_memory.h"
#include "render/display_text.h"
#include "render/version_text.h"
#ifdef ATTNPROF_HAVE_BENCH
#include "attnprof_bench/bench_command.h"
#endif

namespace {

// A descriptor 0, 1 or 2 the shell closed (`attnprof analyze t >&-`) would be reused by the
// first file opened, and the report written into it. Each is held by /dev/null instead: read-only
// for standard output, so a write still fails, and says so.
void hold_closed_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = ::open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY);
    if (held >= 0 && held != fd) {
      ::dup2(held, fd);
      ::close(held);
    }
  }
}

std::string version() {
  std::string text = attnprof::version_text() + "CLI11 " CLI11_VERSION "\n";
#ifdef ATTNPROF_HAVE_BENCH
  text += attnprof::bench::version_lines();
#endif
  return text;
}

// The commands a user may type; `visible_only` leaves out the hidden ones (manpage).
std::vector<std::string> subcommand_names(const CLI::App& app, bool visible_only = false) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (!visible_only || !sub->get_group().empty()) names.push_back(sub->get_name());
  return names;
}

// The subcommand typed, the first word that is no flag; null when there is none.
CLI::App* typed_subcommand(CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    for (CLI::App* candidate : app.get_subcommands([](const CLI::App*) { return true; }))
      if (candidate->get_name() == argv[i]) return candidate;
    return nullptr;
  }
  return nullptr;
}

// After a parse error: a flag of the subcommand that is not one, and the one it was likely meant
// to be ("--regoin" -> "--region").
std::string flag_suggestion(CLI::App& app, int argc, char** argv) {
  CLI::App* sub = typed_subcommand(app, argc, argv);
  if (!sub) return {};
  std::vector<std::string> flags;
  for (const CLI::Option* option : sub->get_options())
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  for (const CLI::Option* option : app.get_options())
    for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.substr(0, 2) != "--") continue;
    arg = arg.substr(0, arg.find('='));
    if (std::find(flags.begin(), flags.end(), arg) != flags.end()) continue;
    if (auto near = attnprof::cli::closest(arg, flags))
      return "'" + attnprof::escape_control(arg) + "' is not a flag of " + sub->get_name() +
             "; did you mean '" + *near + "'?";
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  hold_closed_standard_descriptors();
  // --help-all: the help with the limit flags, which --help leaves out.
  std::vector<char*> args(argv, argv + argc);
  static char help[] = "--help";
  for (char*& arg : args) {
    if (std::string_view(arg) == "--") break;
    if (std::string_view(arg) == "--help-all") {
      attnprof::cli::show_limit_flags(true);
      arg = help;
    }
  }
  argv = args.data();
  CLI::App app{
      "attnprof: profile attention implementations and read their PyTorch profiler traces"};
  app.require_subcommand(1);
  app.fallthrough();  // --quiet after the subcommand too
  app.add_flag_callback(
      "-q,--quiet", [] { attnprof::cli::set_quiet(true); },
      "No progress line on stderr; `check` prints nothing on stdout (its exit code says "
      "it all). Errors are still printed");
  app.add_flag_callback(
      "-V,--version",
      [] {
        std::fputs(version().c_str(), stdout);
        throw CLI::Success();
      },
      "Print the version, the commit it was built from, and its libraries' versions");
  app.footer(
      "attnprof COMMAND --help says more; --help-all adds the reader's limit flags "
      "(--max-*)");
  int exit_code = 0;
  attnprof::cli::register_analyze(app, exit_code);
  attnprof::cli::register_diff(app, exit_code);
  attnprof::cli::register_check(app, exit_code);
  attnprof::cli::register_report(app, exit_code);
  attnprof::cli::register_annotate(app, exit_code);
  attnprof::cli::register_merge(app, exit_code);
  attnprof::cli::register_completion(app, exit_code);
  attnprof::cli::register_datasheet(app, exit_code);
  attnprof::cli::register_summary_json(app, exit_code);
#ifdef ATTNPROF_HAVE_BENCH
  attnprof::bench::register_bench_command(app, exit_code);
#else
  attnprof::cli::register_bench_unavailable(app, exit_code);
#endif
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    std::string footer = "A file name that begins with - goes after --: attnprof " +
                         sub->get_name() + " -- -odd.json";
    bool limits = false;
    for (const CLI::Option* option : sub->get_options())
      for (const std::string& name : option->get_lnames())
        limits = limits || name.starts_with("max-");
    if (limits) footer += "\n--help-all adds the reader's limit flags (--max-*)";
    sub->footer(footer);
  }
#ifndef ATTNPROF_HAVE_BENCH
  // `bench` with any flags but a request for its help: a mistake in them would be reported
  // before what is missing, so say what is missing first.
  const bool wants_help = std::any_of(argv + 1, argv + argc, [](const char* arg) {
    return std::string_view(arg) == "--help" || std::string_view(arg) == "-h";
  });
  for (int i = 1; i < argc && !wants_help; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty() || arg[0] == '-') continue;
    if (arg == "bench") return attnprof::cli::bench_unavailable();
    break;
  }
#endif
  // A first word that is no subcommand: say which one was meant.
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty() || arg[0] == '-') continue;
    const std::vector<std::string> names = subcommand_names(app);
    if (std::find(names.begin(), names.end(), arg) != names.end()) break;
    std::string message = "'" + attnprof::escape_control(arg) + "' is not a command";
    if (auto near = attnprof::cli::closest(arg, names))
      message += "; did you mean '" + *near + "'?";
    else
      message += "; the commands: " + [&] {
        std::string list;
        for (const std::string& name : subcommand_names(app, true))
          list += (list.empty() ? "" : ", ") + name;
        return list;
      }() + " (attnprof --help)";
    attnprof::cli::print_error(message);
    return 2;
  }

  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-') {
      attnprof::cli::handle_out_of_memory(argv[i]);
      break;
    }
  try {
    app.parse(argc, argv);
  } catch (const std::bad_alloc&) {
    return attnprof::cli::say_out_of_memory();
  } catch (const std::system_error& error) {
    // A thread whose stack could not be mapped: memory too.
    if (error.code() != std::errc::resource_unavailable_try_again) throw;
    return attnprof::cli::say_out_of_memory();
  } catch (const CLI::CallForHelp& e) {  // before Success, which it derives from
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::Success&) {
    return 0;
  } catch (const CLI::ParseError& e) {
    // One line: the flag that was likely meant, or else CLI11's words and where the help is.
    if (std::string hint = flag_suggestion(app, argc, argv); !hint.empty())
      attnprof::cli::print_error(hint);
    else
      attnprof::cli::print_error(std::string(e.what()) + " (attnprof " + [&] {
        const CLI::App* sub = typed_subcommand(app, argc, argv);
        return sub ? sub->get_name() + " " : std::string();
      }() + "--help)");
    return 2;
  }
  return exit_code;
}
