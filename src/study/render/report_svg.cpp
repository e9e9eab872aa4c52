#include "study/render/report_svg.h"

#include "render/escape_html.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

namespace attnprof::svg {

std::string escape(std::string_view text) {
  return html_escape(text);
}

std::string num(double v) {
  if (!std::isfinite(v)) return "0";
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::vector<double> linear_ticks(double max, int target, bool cover) {
  if (!(max > 0)) return {0};
  const double raw = max / std::max(target, 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * power;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  for (int i = 0; i * step <= max * (1 + 1e-9); ++i) ticks.push_back(i * step);
  if (cover && ticks.back() < max) ticks.push_back(ticks.back() + step);
  return ticks;
}

std::vector<double> log_ticks(double lo, double hi) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi >= lo)) return ticks;
  const int first = static_cast<int>(std::floor(std::log10(lo)));
  const int last = static_cast<int>(std::ceil(std::log10(hi)));
  const bool decades_only = last - first > 4;
  for (int e = first; e <= last; ++e) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (decades_only && m != 1.0) continue;
      const double t = m * std::pow(10.0, e);
      if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) ticks.push_back(t);
    }
  }
  return ticks;
}

std::vector<double> log2_ticks(double lo, double hi) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi >= lo)) return ticks;
  const int first = static_cast<int>(std::ceil(std::log2(lo) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log2(hi) + 1e-9));
  const int stride = last - first + 1 > 16 ? 4 : last - first + 1 > 8 ? 2 : 1;
  for (int e = first; e <= last; ++e)
    if (e % stride == 0) ticks.push_back(std::ldexp(1.0, e));
  return ticks;
}

std::string fit(std::string_view text, int chars) {
  // Count code points: a byte that does not continue a UTF-8 sequence starts one.
  auto starts = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; };
  int count = 0;
  for (char c : text) count += starts(c);
  if (count <= chars) return std::string(text);
  if (chars < 2) return "";
  std::string out;
  int kept = 0;
  for (char c : text) {
    if (starts(c) && ++kept > chars - 1) break;
    out += c;
  }
  return out + "…";
}

namespace {

// A glyph's advance in em, in DejaVu Sans (rounded up): narrow strokes, punctuation, digits,
// wide letters; anything outside ASCII as a full em.
double glyph_em(unsigned char c) {
  if (c >= 0x80) return 1.0;
  switch (c) {
    case 'i':
    case 'j':
    case 'l':
    case '.':
    case ',':
    case ':':
    case ';':
    case '\'':
    case '!':
    case '|':
      return 0.3;
    case 'f':
    case 't':
    case 'r':
    case 'I':
    case ' ':
    case '(':
    case ')':
    case '[':
    case ']':
    case '-':
    case '/':
      return 0.42;
    case 'm':
    case 'w':
    case 'M':
    case 'W':
    case '%':
    case '@':
      return 1.0;
    case '<':
    case '>':
    case '=':
    case '+':
    case '~':
    case '#':
      return 0.84;
    case '_':
      return 0.5;
    default:
      break;
  }
  if (c >= 'A' && c <= 'Z') return 0.77;
  return 0.64;  // lowercase letters and digits
}

}  // namespace

double text_width(std::string_view text, double font_px) {
  double em = 0;
  // A UTF-8 sequence counts once: its lead byte as a full em, its continuation bytes as nothing.
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) == 0x80) continue;
    em += glyph_em(c);
  }
  return em * font_px;
}

std::string fit_width(std::string_view text, double width, double font_px) {
  if (text_width(text, font_px) <= width) return std::string(text);
  const double ellipsis = font_px * 1.0;
  std::string out;
  double used = 0;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    len = std::min(len, text.size() - i);
    const double w = glyph_em(c) * font_px;
    if (used + w + ellipsis > width) break;
    out.append(text.substr(i, len));
    used += w;
    i += len;
  }
  return out.empty() ? std::string() : out + "…";
}

Box label_box(double x, double baseline, std::string_view text, double font_px) {
  // Ascent and descent of the font: about 0.93 and 0.24 em.
  return {x, baseline - font_px * 0.93, text_width(text, font_px), font_px * 1.17};
}

std::string_view class_color(KernelClass c) {
  switch (c) {
    case KernelClass::kFusedAttention:
      return "#7c3aed";
    case KernelClass::kGemm:
      return "#2563eb";
    case KernelClass::kSoftmax:
      return "#f59e0b";
    case KernelClass::kMask:
      return "#db2777";
    case KernelClass::kElementwise:
      return "#10b981";
    case KernelClass::kReduction:
      return "#0891b2";
    case KernelClass::kCopy:
      return "#dc2626";
    case KernelClass::kMemset:
      return "#a8a29e";
    case KernelClass::kCommunication:
      return "#ea580c";
    case KernelClass::kOther:
      return "#64748b";
  }
  return "#64748b";
}

std::string_view cpu_color(SpanKind kind, int32_t depth) {
  switch (kind) {
    case SpanKind::kUserAnnotation:
      return "#cbd5e1";
    case SpanKind::kRuntime:
    case SpanKind::kDriver:
      return "#fdba74";
    default:
      return depth % 2 ? "#a5b4fc" : "#c7d2fe";
  }
}

std::string_view text_on(std::string_view hex) {
  if (hex.size() != 7 || hex[0] != '#') return "#0f172a";
  auto channel = [&](size_t at) {
    return std::stoi(std::string(hex.substr(at, 2)), nullptr, 16) / 255.0;
  };
  // Relative luminance (sRGB weights, without the gamma curve: close enough to pick a color).
  const double y = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return y > 0.55 ? "#0f172a" : "#ffffff";
}

std::string_view series_color(size_t i) {
  static constexpr std::array<std::string_view, 10> kTableau10 = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  return kTableau10[i % kTableau10.size()];
}

}  // namespace attnprof::svg
