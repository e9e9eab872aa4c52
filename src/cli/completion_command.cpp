// `attnprof completion bash|zsh|fish` and `attnprof manpage`: shell completion and the man page,
// both written from the command line's own definition (the commands, their flags, their help and
// the values --format takes), so that neither can fall behind a new flag. The build writes them
// beside the binary and `cmake --install` installs them (CMakeLists.txt).

#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "attnprof/render.h"
#include "cli/command_output.h"
#include "cli/commands.h"

namespace attnprof::cli {

namespace {

struct Flag {
  std::vector<std::string> names;  // "--format", "-o"
  std::string help;
  std::vector<std::string> choices;  // --format's values; empty for a free value
  bool takes_value = false;
  bool hidden = false;  // the limit flags, shown by --help-all only
};

struct Command {
  std::string name;
  std::string help;
  std::vector<Flag> flags;
  std::vector<std::string> positionals;  // "traces", "summaries"
};

// "TEXT:{text,json,md}" (CLI11's IsMember) -> text, json, md.
std::vector<std::string> choices_of(const std::string& type_name) {
  std::vector<std::string> out;
  const size_t open = type_name.find('{'), close = type_name.rfind('}');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string item;
  for (char c : type_name.substr(open + 1, close - open - 1)) {
    if (c == ',') {
      out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

Flag flag_of(const CLI::Option* option) {
  Flag f;
  for (const std::string& n : option->get_lnames()) f.names.push_back("--" + n);
  for (const std::string& n : option->get_snames()) f.names.push_back("-" + n);
  f.help = option->get_description();
  f.takes_value = option->get_items_expected_min() > 0;
  f.choices = choices_of(option->get_type_name());
  f.hidden = option->get_group().empty();
  return f;
}

std::vector<Command> commands_of(const CLI::App& app) {
  std::vector<Command> out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;  // hidden: manpage
    Command c{sub->get_name(), sub->get_description(), {}, {}};
    for (const CLI::Option* option : sub->get_options()) {
      if (option->get_lnames().empty() && option->get_snames().empty()) {
        c.positionals.push_back(option->get_name());
        continue;
      }
      c.flags.push_back(flag_of(option));
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<Flag> global_flags(const CLI::App& app) {
  std::vector<Flag> out;
  for (const CLI::Option* option : app.get_options()) out.push_back(flag_of(option));
  return out;
}

std::string joined(const std::vector<std::string>& items, std::string_view between = " ") {
  std::string out;
  for (const auto& i : items) {
    if (!out.empty()) out += between;
    out += i;
  }
  return out;
}

std::string all_names(const std::vector<Flag>& flags) {
  std::vector<std::string> names;
  for (const Flag& f : flags)
    for (const auto& n : f.names)
      if (n.starts_with("--")) names.push_back(n);
  return joined(names);
}

std::string bash_script(const CLI::App& app) {
  const std::vector<Command> commands = commands_of(app);
  std::vector<std::string> names;
  for (const auto& c : commands) names.push_back(c.name);
  std::string cases, values;
  for (const auto& c : commands) {
    cases += fmt::format("    {}) flags=\"{}\" ;;\n", c.name, all_names(c.flags));
    for (const Flag& f : c.flags)
      if (!f.choices.empty())
        values +=
            fmt::format("    {}:{}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;\n",
                        c.name, f.names.front(), joined(f.choices));
  }
  return fmt::format(
      R"(# bash completion for attnprof, written by `attnprof completion bash`.
_attnprof() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" cmd="" w
  for w in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
    case "$w" in -*) ;; *) cmd="$w"; break ;; esac
  done
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "{} {}" -- "$cur"))
    return
  fi
  case "$cmd:$prev" in
{}  esac
  local flags=""
  case "$cmd" in
{}  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags --help" -- "$cur"))
  else
    # One name a line, so that a file name with spaces stays one word (bash quotes it on
    # insertion, -o filenames).
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}}
complete -o filenames -o bashdefault -F _attnprof attnprof
)",
      joined(names), all_names(global_flags(app)), values, cases);
}

std::string fish_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "'";
}

std::string fish_script(const CLI::App& app) {
  std::string out = "# fish completion for attnprof, written by `attnprof completion fish`.\n";
  const std::vector<Command> commands = commands_of(app);
  for (const auto& c : commands)
    out += fmt::format("complete -c attnprof -n __fish_use_subcommand -f -a {} -d {}\n", c.name,
                       fish_quote(c.help));
  for (const auto& c : commands)
    for (const Flag& f : c.flags) {
      std::string line =
          fmt::format("complete -c attnprof -n '__fish_seen_subcommand_from {}'", c.name);
      for (const auto& n : f.names)
        line += n.starts_with("--") ? " -l " + n.substr(2) : " -s " + n.substr(1);
      if (f.takes_value) line += " -r";
      if (!f.choices.empty()) line += " -f -a " + fish_quote(joined(f.choices));
      out += line + " -d " + fish_quote(f.help) + "\n";
    }
  return out;
}

std::string zsh_script(const CLI::App& app) {
  // zsh runs the bash function through its bashcompinit layer: one definition for both shells.
  return "#compdef attnprof\n# zsh completion for attnprof, written by `attnprof completion "
         "zsh`.\nautoload -U +X bashcompinit && bashcompinit\n" +
         bash_script(app);
}

// roff: a backslash and a leading dot or quote would be read as requests.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

void man_flags(std::string& out, const std::vector<Flag>& flags) {
  for (const Flag& f : flags) {
    out += ".TP\n.B " + roff(joined(f.names, ", "));
    if (!f.choices.empty())
      out += " " + roff(joined(f.choices, "|"));
    else if (f.takes_value)
      out += " \\fIVALUE\\fR";
    out += "\n" + roff(f.help) + (f.hidden ? " (a limit flag: --help-all lists it)" : "") + "\n";
  }
}

std::string man_page(const CLI::App& app) {
  std::string out = ".TH ATTNPROF 1 \"\" \"attnprof\" \"User Commands\"\n.SH NAME\n";
  out += "attnprof \\- " + roff(app.get_description()) + "\n";
  out +=
      ".SH SYNOPSIS\n.B attnprof\n[\\fB\\-\\-quiet\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] "
      "[\\fIARGUMENTS\\fR]\n";
  out +=
      ".SH DESCRIPTION\nattnprof reads PyTorch profiler (Kineto) traces and says, region by "
      "region, what the GPU did and which op made it do it; on a machine with a GPU and "
      "LibTorch it runs the attention study. Each command's \\fB\\-\\-help\\fR says the same "
      "as this page; \\fB\\-\\-help\\-all\\fR adds the limit flags.\n";
  out += ".SH GLOBAL OPTIONS\n";
  man_flags(out, global_flags(app));
  out += ".SH COMMANDS\n";
  for (const auto& c : commands_of(app)) {
    out += ".SS " + roff(c.name) + " " + roff(joined(c.positionals)) + "\n" + roff(c.help) + "\n";
    man_flags(out, c.flags);
  }
  out +=
      ".SH EXIT STATUS\n0: success. 1: \\fBcheck\\fR found an expectation that does not hold. "
      "2: bad input or usage, with one line on standard error naming the file and what to "
      "do.\n";
  out +=
      ".SH SEE ALSO\nThe project's README.md and docs/ (json-schema.md, check-and-diff.md, "
      "DISTRIBUTED.md).\n";
  return out;
}

}  // namespace

void register_completion(CLI::App& app, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd =
      app.add_subcommand("completion",
                         "Print a shell completion script: attnprof completion bash > "
                         "/etc/bash_completion.d/attnprof (cmake --install installs them)");
  cmd->add_option("shell", *shell, "The shell")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  cmd->callback([&app, shell, &exit_code] {
    exit_code = write_command_output(*shell == "bash"  ? bash_script(app)
                                     : *shell == "zsh" ? zsh_script(app)
                                                       : fish_script(app));
  });
  CLI::App* man = app.add_subcommand("manpage", "Print the man page (roff)");
  man->group("");  // hidden: the build writes attnprof.1 with it
  man->callback([&app, &exit_code] { exit_code = write_command_output(man_page(app)); });
}

}  // namespace attnprof::cli
