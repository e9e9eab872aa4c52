#pragma once
// Names people can read: kernel names as the trace gives them run to kilobytes of templates.

#include <string>
#include <string_view>
#include <unordered_map>

#include "model/string_pool.h"

namespace attnprof {

// "void at::native::vectorized_elementwise_kernel<8, at::native::AUnaryFunctor<...,
// MulFunctor<float>>,
// ...>(int, ...)" -> "vectorized_elementwise_kernel<...> [MulFunctor]": mangled names demangled,
// the return type, namespaces, parameters and template arguments folded, and the functor or inner
// kernel named in the arguments kept as a hint, since it is what tells elementwise kernels apart.
std::string short_kernel_name(std::string_view name);

// short_kernel_name of each kernel name of a trace, worked out once: a trace repeats a few hundred
// names over its activities, and folding one takes thousands of instructions (launch delays named
// per member set were 1 % of analyze's on a 716-step trace, docs/PERFORMANCE.md).
class KernelShortNames {
 public:
  const std::string& of(const StringPool& strings, StringId name);

 private:
  std::unordered_map<StringId, std::string> names_;
};

// "Memcpy DtoD (Device -> Device)" -> "DtoD"; an unrecognized name gives "other".
std::string memcpy_kind(std::string_view name);

}  // namespace attnprof
