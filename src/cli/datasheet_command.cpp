// `attnprof datasheet --format json`, hidden: the GPU datasheet (src/analysis/gpu_datasheet.h)
// for scripts that must use the same peaks as the core (scripts/gpu/record_flex.py), so that the
// project keeps one table (docs/GPU_DATASHEET.md).

#include "analysis/gpu_datasheet.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "render/json_writer.h"

namespace attnprof::cli {

namespace {

std::string datasheet_json(const std::string& device) {
  JsonWriter w;
  auto row = [&](const GpuDatasheet& d) {
    w.begin_object();
    w.key("name").string(d.name);
    w.key("fp32_tflops").number(d.fp32);
    w.key("tf32_tflops").number(d.tf32);
    w.key("bf16_tflops").number(d.bf16);
    w.key("fp16_tflops").number(d.fp16);
    w.key("fp8_tflops").number(d.fp8);
    w.key("memory_gb_per_s").number(d.memory_gb_per_s);
    w.key("source").string(d.source);
    w.key("dense").boolean(true);
    w.end_object();
  };
  if (!device.empty()) {
    // The row a device name matches, or null.
    const GpuDatasheet* d = find_gpu_datasheet(device);
    d ? row(*d) : void(w.null());
  } else {
    w.begin_array();
    for (const GpuDatasheet& d : gpu_datasheets()) row(d);
    w.end_array();
  }
  std::string text = w.take();
  text += '\n';
  return text;
}

}  // namespace

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
