#include "render/escape_html.h"

#include <cctype>

#include "render/display_text.h"

namespace attnprof {

namespace {

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  return true;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  // Newlines and tabs are fine in HTML and XML; escape_control would show them as \x0a.
  size_t start = 0;
  for (size_t at = 0; at <= text.size(); ++at) {
    if (at < text.size() && text[at] != '\n' && text[at] != '\t') continue;
    for (char c : escape_control(text.substr(start, at - start))) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&#39;";
          break;
        default:
          out += c;
      }
    }
    if (at < text.size()) out += text[at];
    start = at + 1;
  }
  return out;
}

std::string safe_href(std::string_view link) {
  std::string out;
  const bool web =
      starts_with_ignoring_case(link, "http://") || starts_with_ignoring_case(link, "https://");
  if (!web) {
    // Rooted paths ("/x", "//host/x", "\\host") leave the run folder: no link.
    if (link.empty() || link.front() == '/' || link.front() == '\\') return "";
    if (link.substr(0, link.find('/')).find(':') != std::string_view::npos) out = "./";
  }
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (char c : link) {
    const auto b = static_cast<unsigned char>(c);
    // In a file's path, '%', '?' and '#' are part of its name, not of a URL.
    const bool url_syntax = !web && (c == '%' || c == '?' || c == '#');
    if (b <= 0x20 || b >= 0x7f || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' ||
        c == '\\' || url_syntax) {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace attnprof
