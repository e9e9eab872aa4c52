#include "study_expectations.h"

#include "problem.h"

namespace attnprof::bench {

Result<std::vector<VariantExpectation>> load_study_expectations(
    const std::string& path, const std::vector<std::string>& custom_names) {
  std::vector<std::string> variants;
  for (Variant v : kAllVariants) variants.emplace_back(name(v));
  variants.insert(variants.end(), custom_names.begin(), custom_names.end());
  return load_variant_expectations(path, variants, Limits{});
}

}  // namespace attnprof::bench
