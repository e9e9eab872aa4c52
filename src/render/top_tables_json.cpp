#include "render/top_tables_json.h"

#include "analysis/kernels/kernel_class.h"

namespace attnprof {

namespace {

void share(JsonWriter& w, int64_t part_ns, int64_t busy_ns) {
  w.key("busy_share_pct");
  if (busy_ns > 0)
    w.number(100.0 * static_cast<double>(part_ns) / static_cast<double>(busy_ns));
  else
    w.null();
}

void write_modules(JsonWriter& w, const std::vector<ModuleTotal>& rows) {
  w.begin_array();
  for (const ModuleTotal& m : rows) {
    w.begin_object();
    w.key("name").string(m.name);
    w.key("depth").number(m.depth);
    w.key("calls").number(m.calls);
    w.key("cpu_us").number(m.cpu_ns / 1000.0);
    w.key("gpu_us").number(m.gpu_ns / 1000.0);
    w.key("gpu_activities").number(m.activities);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

void write_top_tables_json(JsonWriter& w, const RegionTables& tables, int64_t gpu_busy_ns) {
  w.key("top_kernels").begin_array();
  for (const KernelTotal& k : tables.kernels) {
    w.begin_object();
    w.key("short_name").string(k.short_name);
    w.key("name").string(k.name);
    w.key("class").string(kernel_class_id(k.kernel_class));
    w.key("count").number(k.count);
    w.key("total_us").number(k.total_ns / 1000.0);
    w.key("mean_us").number(k.total_ns / 1000.0 / static_cast<double>(k.count));
    w.key("min_us").number(k.min_ns / 1000.0);
    w.key("max_us").number(k.max_ns / 1000.0);
    share(w, k.total_ns, gpu_busy_ns);
    w.end_object();
  }
  w.end_array();
  w.key("kernel_classes").begin_array();
  for (const KernelClassTotal& c : tables.kernel_classes) {
    w.begin_object();
    w.key("class").string(kernel_class_id(c.kernel_class));
    w.key("count").number(c.count);
    w.key("total_us").number(c.total_ns / 1000.0);
    share(w, c.total_ns, gpu_busy_ns);
    w.end_object();
  }
  w.end_array();
  w.key("ops").begin_array();
  for (const OpTotal& o : tables.ops) {
    w.begin_object();
    w.key("name").string(o.name);
    w.key("calls").number(o.calls);
    w.key("cpu_us").number(o.cpu_ns / 1000.0);
    w.key("self_cpu_us").number(o.self_cpu_ns / 1000.0);
    w.key("gpu_us").number(o.gpu_ns / 1000.0);
    w.key("self_gpu_us").number(o.self_gpu_ns / 1000.0);
    if (!o.input_shapes.empty()) w.key("input_shapes").string(o.input_shapes);
    // null where unknown (no recorded shapes, an op outside the cost model), never 0.
    auto maybe = [&](const char* key, const std::optional<double>& v) {
      w.key(key);
      v ? w.number(*v) : w.null();
    };
    maybe("flops", o.flops);
    maybe("bytes", o.bytes);
    w.key("costed_gpu_us").number(o.costed_gpu_ns / 1000.0);
    const std::optional<double> rate = o.achieved_per_s();
    maybe("tflops_per_s", o.memory_bound || !rate ? std::nullopt : std::optional(*rate / 1e12));
    maybe("gb_per_s", o.memory_bound && rate ? std::optional(*rate / 1e9) : std::nullopt);
    maybe("roof_pct", o.roof_pct);
    w.key("roof");
    o.roof.empty() ? w.null() : w.string(o.roof);
    w.key("roof_note");
    o.roof_note.empty() ? w.null() : w.string(o.roof_note);
    w.end_object();
  }
  w.end_array();
  w.key("ops_roof_gpu");
  tables.roof_gpu.empty() ? w.null() : w.string(tables.roof_gpu);
  w.key("ops_no_roof_reason");
  tables.no_roof_reason.empty() ? w.null() : w.string(tables.no_roof_reason);
  w.key("module_classes");
  write_modules(w, tables.module_classes);
  w.key("modules");
  write_modules(w, tables.module_instances);
}

}  // namespace attnprof
