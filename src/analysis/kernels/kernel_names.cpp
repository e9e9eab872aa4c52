#include "analysis/kernels/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace attnprof {

namespace {

bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string demangle(std::string_view name) {
  std::string text(name);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(text.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : text;
}

// The qualified name at the head of a mangled name that does not demangle whole (Kineto and the
// tools that cut traces shorten names past a kilobyte: tests/data/foreign/cnn_train's CUTLASS
// kernels end mid-argument): "_ZN17cutlass__5x_cudnn6KernelINS_..." -> "cutlass__5x_cudnn::
// Kernel<...>". Empty when not even the head reads.
std::string mangled_head(std::string_view name) {
  size_t i = 2;  // past "_Z"
  const bool nested = i < name.size() && name[i] == 'N';
  if (nested) ++i;
  std::string out;
  while (i < name.size() && name[i] >= '1' && name[i] <= '9') {
    size_t length = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && length < 100000)
      length = length * 10 + static_cast<size_t>(name[i++] - '0');
    if (length > name.size() - i) return {};
    if (!out.empty()) out += "::";
    out += name.substr(i, length);
    i += length;
    if (!nested) break;
  }
  if (!out.empty() && i < name.size() && name[i] == 'I') out += "<...>";
  return out;
}

// A mangled name, demangled; NVCC's file-static prefix ("__nv_static_32__b4148644_10_onerank_cu_
// fdf47990__ZN...", tests/data/comm) dropped first.
std::string readable(std::string_view raw) {
  if (raw.starts_with("__nv_static_")) {
    const size_t at = raw.find("__Z");
    if (at == std::string_view::npos) return std::string(raw);
    raw = raw.substr(at + 1);
  }
  if (!raw.starts_with("_Z")) return std::string(raw);
  std::string name = demangle(raw);
  if (name.starts_with("_Z")) {
    std::string head = mangled_head(raw);
    if (!head.empty()) return head;
  }
  return name;
}

std::string without(std::string text, std::string_view noise) {
  for (size_t at; (at = text.find(noise)) != std::string::npos;) text.erase(at, noise.size());
  return text;
}

// A functor or inner kernel named in the template arguments, e.g. MulFunctor, masked_fill_kernel.
std::string hint_in(std::string_view args, std::string_view base) {
  for (size_t i = 0; i < args.size();) {
    if (!is_ident(args[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < args.size() && is_ident(args[j])) ++j;
    std::string_view word = args.substr(i, j - i);
    // Wrappers that every elementwise kernel has say nothing about what it computes.
    static constexpr std::string_view kWrappers[] = {"AUnaryFunctor",
                                                     "BUnaryFunctor",
                                                     "BinaryFunctor",
                                                     "UnaryFunctor",
                                                     "gpu_kernel_impl",
                                                     "gpu_kernel_impl_nocast",
                                                     "elementwise_kernel",
                                                     "vectorized_elementwise_kernel",
                                                     "unrolled_elementwise_kernel",
                                                     "elementwise_kernel_helper"};
    bool wrapper = false;
    for (std::string_view w : kWrappers) wrapper = wrapper || word == w;
    if (!wrapper && word != base &&
        (ends_with(word, "Functor") || ends_with(word, "_kernel") ||
         ends_with(word, "_kernel_cuda") || ends_with(word, "Ops") || word.find("Functor_") == 0 ||
         word.find("CUDAFunctor") == 0))
      return std::string(word);
    i = j;
  }
  return {};
}

// CUTLASS's and cuDNN's kernel entry points are one template each (cutlass::Kernel2<Op>):
// folded, every GEMM of a trace would read "Kernel2<...>". What tells them apart is the operator
// they run, named by the first template argument: its tile, its architecture, its layout.
bool generic_kernel(std::string_view base) {
  return base == "Kernel" || base == "Kernel2" || base == "device_kernel" ||
         base == "GenericKernel";
}

// "cutlass_80_simt_sgemm_128x256_8x4_nt_align1" of "cutlass_80_simt_sgemm_128x256_8x4_nt_align1";
// "ReduceSplitK" of "cutlass::reduction::kernel::ReduceSplitK<cutlass::MatrixShape<4, 128>, ...>".
std::string first_argument_name(std::string_view args) {
  size_t end = 0;
  while (end < args.size() && args[end] != '<' && args[end] != ',' && args[end] != '(') ++end;
  std::string_view first = args.substr(0, end);
  while (!first.empty() && first.front() == ' ') first.remove_prefix(1);
  while (!first.empty() && first.back() == ' ') first.remove_suffix(1);
  if (size_t colons = first.rfind("::"); colons != std::string_view::npos)
    first = first.substr(colons + 2);
  for (char c : first)
    if (!is_ident(c)) return {};
  // A type argument (Kernel<float, ...>) names no operator.
  for (std::string_view type : {"int", "float", "double", "half", "bool", "char", "long",
                                "unsigned", "short", "signed", "bfloat16", "__half"})
    if (first == type) return {};
  return std::string(first);
}

}  // namespace

std::string short_kernel_name(std::string_view raw) {
  std::string name = readable(raw);
  name = without(std::move(name), "(anonymous namespace)::");
  // Find the end of the function name: the first '(' outside template brackets and lambdas.
  int depth = 0;
  size_t params = name.size();
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '{' || c == '[')
      ++depth;
    else if ((c == '>' || c == '}' || c == ']') && depth > 0)
      --depth;
    else if (c == '(' && depth == 0) {
      params = i;
      break;
    }
  }
  std::string_view head(name.data(), params);
  // Drop the return type: the last space outside template brackets.
  depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    char c = head[i];
    if (c == '<')
      ++depth;
    else if (c == '>' && depth > 0)
      --depth;
    else if (c == ' ' && depth == 0)
      start = i + 1;
  }
  head = head.substr(start);
  // Fold template arguments, then drop namespaces of what is left.
  std::string folded;
  std::string_view template_args;
  depth = 0;
  size_t args_begin = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    char c = head[i];
    if (c == '<') {
      if (depth++ == 0) {
        folded += "<...>";
        args_begin = i + 1;
      }
    } else if (c == '>' && depth > 0) {
      if (--depth == 0 && template_args.empty())
        template_args = head.substr(args_begin, i - args_begin);
    } else if (depth == 0) {
      folded += c;
    }
  }
  std::string base = folded;
  if (size_t colons = base.rfind("::", base.find('<')); colons != std::string::npos)
    base = base.substr(colons + 2);
  if (base.empty()) return std::string(raw.substr(0, 80));
  std::string base_ident = base.substr(0, base.find('<'));
  std::string hint = generic_kernel(base_ident) ? first_argument_name(template_args)
                                                : hint_in(template_args, base_ident);
  return hint.empty() ? base : base + " [" + hint + "]";
}

std::string memcpy_kind(std::string_view name) {
  // Kineto: "Memcpy DtoD (Device -> Device)", "Memcpy HtoD (Pageable -> Device)". One of a
  // fixed set, never the name's own text: a trace could otherwise make as many kinds as copies,
  // each a column of every region.
  constexpr std::string_view kPrefix = "Memcpy ";
  constexpr std::string_view kKinds[] = {"HtoD", "DtoH", "DtoD", "HtoH", "PtoP"};
  if (name.substr(0, kPrefix.size()) != kPrefix) return "other";
  std::string_view rest = name.substr(kPrefix.size());
  rest = rest.substr(0, rest.find(' '));
  for (std::string_view kind : kKinds)
    if (rest == kind) return std::string(kind);
  return "other";
}

const std::string& KernelShortNames::of(const StringPool& strings, StringId name) {
  auto [it, fresh] = names_.try_emplace(name);
  if (fresh) it->second = short_kernel_name(strings.view(name));
  return it->second;
}

}  // namespace attnprof
