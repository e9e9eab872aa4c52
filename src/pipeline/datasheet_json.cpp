#include "pipeline/datasheet_json.h"

#include "analysis/gpu_datasheet.h"
#include "render/json_writer.h"

namespace attnprof {

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

}  // namespace attnprof
