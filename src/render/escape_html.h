#pragma once
// Text from a trace or a summary.json as the HTML report and its inline SVG show it. A name may
// hold markup (`<script>`), a quote that ends an attribute, a control byte that XML forbids or a
// terminal obeys when the page is printed (`report -o -`), or a scheme that makes a link run
// script (a trace file named `javascript:alert(1).json.gz`). Every HTML and SVG renderer passes
// names through these two functions (docs/SECURITY.md lists the rules of each output format).

#include <string>
#include <string_view>

namespace attnprof {

// Text for HTML and SVG content and attribute values: & < > " ' as entities, and every byte
// render/display_text.h's escape_control escapes (C0 controls other than newline and tab, DEL,
// C1 controls, bytes that are not UTF-8) written as the visible text \xNN.
std::string html_escape(std::string_view text);

// An href that can only open a file or a web page: "http://" and "https://" URLs stay as they
// are; anything else is a relative path, given a leading "./" when its first segment holds a ':'
// (so that "javascript:..." is a file named so, not a scheme). A rooted path ('/' or '\' first,
// "//host" too) or an empty one gives "": no link. Spaces, controls, quotes and bytes past ASCII
// are percent-encoded (and a path's '%', '?', '#'), so a browser strips nothing from it. The
// result still goes through html_escape for the attribute.
std::string safe_href(std::string_view link);

}  // namespace attnprof
