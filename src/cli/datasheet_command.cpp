// `attnprof datasheet --format json`, hidden: the GPU datasheet (pipeline/datasheet_json.h)
// for scripts that must use the same peaks as the core (scripts/gpu/record_flex.py), so that the
// project keeps one table (docs/GPU_DATASHEET.md).

#include "cli/command_output.h"
#include "cli/commands.h"
#include "pipeline/datasheet_json.h"

namespace attnprof::cli {

void register_datasheet(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "datasheet", "Print the GPU datasheet's dense peaks as JSON (docs/GPU_DATASHEET.md)");
  cmd->group("");  // hidden: for the project's scripts
  auto format = std::make_shared<std::string>("json");
  auto device = std::make_shared<std::string>();
  cmd->add_option("--format", *format, "Output format")->check(CLI::IsMember({"json"}));
  cmd->add_option("--device", *device,
                  "Only the row this deviceProperties name matches (null for none)");
  // The callback holds both values alive: CLI11 writes into them while it parses.
  cmd->callback(
      [format, device, &exit_code] { exit_code = write_command_output(datasheet_json(*device)); });
}

}  // namespace attnprof::cli
