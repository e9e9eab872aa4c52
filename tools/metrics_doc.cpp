// metrics_doc: writes docs/METRICS.md's generated sections (the tables of region facts and of
// findings) from the catalogs, between their markers (render/metrics_doc.h).
//
//   metrics_doc docs/METRICS.md            rewrite the doc's sections in place
//   metrics_doc --check docs/METRICS.md    exit 1 if the doc differs from what it would write
//
// scripts/generate-metrics-doc.sh builds and runs it; tests/metric_names_test.cpp fails while
// the doc differs.

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "io/output_file.h"
#include "render/metrics_doc.h"

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::fprintf(stderr, "usage: metrics_doc [--check] docs/METRICS.md\n");
    return 2;
  }
  const std::string path = argv[argc - 1];
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "metrics_doc: %s: cannot read it\n", path.c_str());
    return 2;
  }
  const std::string doc = text.str();
  attnprof::Result<std::string> written = attnprof::with_generated_sections(doc);
  if (!written.ok()) {
    std::fprintf(stderr, "metrics_doc: %s: %s\n", path.c_str(), written.error().message.c_str());
    return 2;
  }
  if (*written == doc) return 0;
  if (check) {
    std::fprintf(stderr,
                 "metrics_doc: %s differs from the catalogs; run scripts/generate-metrics-doc.sh\n",
                 path.c_str());
    return 1;
  }
  attnprof::Status status = attnprof::write_output_file(path, *written);
  if (!status.ok()) {
    std::fprintf(stderr, "metrics_doc: %s\n", status.error().message.c_str());
    return 2;
  }
  std::fprintf(stderr, "metrics_doc: %s rewritten\n", path.c_str());
  return 0;
}
