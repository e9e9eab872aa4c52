// `attnprof summary-json SUMMARY [-o OUT]`, hidden: reads a bench summary.json with the core's
// reader and writes it with the core's writer (pipeline/summary_json_file.h), so that a script that
// measured in Python (scripts/gpu/record_flex.py) hands its numbers to the one writer of the file
// and never spells the schema itself (docs/json-schema.md, "summary.json").

#include "cli/command_output.h"
#include "cli/commands.h"
#include "io/input_guard.h"
#include "pipeline/summary_json_file.h"

namespace attnprof::cli {

void register_summary_json(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "summary-json",
      "Read a bench summary.json and write it as the bench does: the core's reader, then its "
      "writer (docs/json-schema.md, \"summary.json\")");
  cmd->group("");  // hidden: for the project's scripts
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>("-");
  cmd->add_option("SUMMARY", *input, "A summary.json (schemaVersion 2), in any key order")
      ->required();
  cmd->add_option("-o,--output", *output, "Where to write it (written atomically; -: stdout)");
  // The callback holds both values alive: CLI11 writes into them while it parses.
  cmd->callback([input, output, &exit_code] {
    if (Status refused = refuse_output_over_inputs(*output, {*input}); !refused.ok()) {
      exit_code = fail(refused.error());
      return;
    }
    Result<std::string> summary = rewrite_run_summary(*input);
    if (!summary.ok()) {
      exit_code = fail(summary.error());
      return;
    }
    exit_code = write_command_output(*summary, *output);
  });
}

}  // namespace attnprof::cli
