#pragma once
// Names from a trace, as every text, Markdown, diff and check output and every error shows them
// (docs/SECURITY.md). A trace is written by whoever made it: a kernel, region or file name may hold
// ESC (a terminal command), CR or BS (to overwrite what was printed), a newline (a forged row or
// heading), or `|` (a forged Markdown cell). Every renderer passes each name, path and detail it
// prints through one of these functions, so none of those bytes reaches the output raw. New
// renderers (CSV, anything else) call them too; JSON and HTML have their own escaping
// (render/json_writer.h, render/html_report.cpp).

#include <cstddef>
#include <string>
#include <string_view>

namespace attnprof {

// The length of the valid UTF-8 character at `at` (1 to 4; controls included), or 0 when the byte
// there starts no valid character (a continuation byte, an overlong form, a surrogate, a cut-off
// sequence).
size_t utf8_length(std::string_view text, size_t at);

// `text` with every byte a terminal would act on written as \xNN: the C0 controls (newline and
// tab too), DEL, the C1 controls (U+0080..U+009F, which some terminals obey), and each byte that
// is not part of valid UTF-8 (a lone 0x9b is CSI to an 8-bit terminal). Everything else,
// backslashes included, stays as it is.
std::string escape_control(std::string_view text);

// True when `text` holds a byte escape_control would escape; with `newlines_allowed`, a '\n' is
// fine (a whole multi-line report).
bool has_raw_control(std::string_view text, bool newlines_allowed);

// The columns `text` takes on a terminal once escaped: a wide (CJK, fullwidth) character two, an
// escape \xNN four, any other character one, as fmt counts when it pads a field.
size_t display_width(std::string_view text);

// `text` escaped and cut to at most `width` columns (as display_width counts them), ending in
// "..." when cut. The cut falls between characters, never inside a UTF-8 sequence or an escape.
std::string clip(std::string_view text, size_t width);

// Text for a Markdown table cell, a list item or a heading: escaped, `|`, `\`, `[`, `]`, `(`, `)`,
// `!` and backticks escaped with a backslash, `<` and `>` as entities, newlines as \x0a
// (escape_control). `[` and `]` alone would stop a CommonMark link, but renderers differ
// (some link a bare `(url)` or read `!` before a reference), so every character of link and
// image syntax is escaped (docs/SECURITY.md, "Output formats: one escaping module each"); a
// backslash escape of ASCII punctuation renders as the character itself, so
// `softmax<float>(float*)` reads as it did.
std::string markdown_cell(std::string_view text);
// A code span for a Markdown table cell: escaped, fenced with more backticks than the text holds
// in a row, `|` escaped (entities would show literally inside a code span).
std::string markdown_code(std::string_view text);

}  // namespace attnprof
