#pragma once
// Names people can read: kernel names as the trace gives them run to kilobytes of templates.

#include <string>
#include <string_view>

namespace attnprof {

// "void at::native::vectorized_elementwise_kernel<8, at::native::AUnaryFunctor<...,
// MulFunctor<float>>,
// ...>(int, ...)" -> "vectorized_elementwise_kernel<...> [MulFunctor]": mangled names demangled,
// the return type, namespaces, parameters and template arguments folded, and the functor or inner
// kernel named in the arguments kept as a hint, since it is what tells elementwise kernels apart.
std::string short_kernel_name(std::string_view name);

// "Memcpy DtoD (Device -> Device)" -> "DtoD"; an unrecognized name gives "other".
std::string memcpy_kind(std::string_view name);

}  // namespace attnprof
