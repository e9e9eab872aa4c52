#!/usr/bin/env python3
"""Fails when a file of src/ or include/ includes a header from a higher layer, when a front end
(src/cli/, python/, bench/) includes what docs/ARCHITECTURE.md does not allow it, or when a
renderer (src/render/, src/study/render/) compares a value with a string literal.

The layers, from the bottom up, are those of docs/ARCHITECTURE.md ("Layers"): a file may include
headers of its own folder and of the folders below it. `#include "folder/..."` names the folder;
`#include "attnprof/..."` is the public API (include/attnprof/, the lowest layer). System and
library headers (<...>) are not checked.

The front ends (ARCHITECTURE.md, "Front ends") stand on top of the core and call it through the
pipeline: each may include the public API, the core's folders listed in FRONT_ENDS[...], the few
headers of FRONT_END_HEADERS where it lists them, and its own files (a name without a folder, or
its own folders); never the model's tables (model/), never another front end.

A renderer switches on typed values (an enum with its names table, a property of a column or a
view), decided where the data is made or read: `x == "..."` or `"..." != x` in a renderer is
reported, unless STRING_COMPARISONS lists it with its reason.

usage: layering_test.py ROOT          check the tree at ROOT; prints each upward include
       layering_test.py --self-test   check that the check fails on trees made to break it
"""

import os
import re
import sys
import tempfile

# Lowest first. Keep in step with docs/ARCHITECTURE.md. The study (src/study/: the bench run's
# model, its analyses and the report) stands above the trace path, whose stages never include it;
# its own three rooms are layered like the trace path's. src/cli/ is a front end, not a layer.
LAYERS = ["attnprof", "base", "io", "model", "reader", "analysis", "render",
          "study/run", "study/analysis", "study/render", "pipeline"]
RANK = {name: i for i, name in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# The import stage (io/, model/, reader/) reads fields into the trace's model: of the public API it
# includes only the types that reading needs, never an analysis's results (attnprof/analysis.h,
# expectations.h, region_facts.h...).
IMPORT_STAGE = {"io", "model", "reader"}
IMPORT_API = {"attnprof/result.h", "attnprof/limits.h", "attnprof/diagnostics.h",
              "attnprof/diagnostic_table.h", "attnprof/attribution.h",
              "attnprof/hardware_counters.h"}
STUDY = ["study/run", "study/analysis", "study/render"]
# The headers below the pipeline that the CLI and the Python module may include, each for what a
# front end does itself: write what the pipeline made, and its own lines on the terminal.
FRONT_END_HEADERS = {
    "render/output_format.h": "the formats' enum, which --format and format= parse once",
    "io/output_file.h": "the one writer of output files",
    "io/input_guard.h": "an output over an input refused before any work",
    "render/display_text.h": "the front end's own lines (errors, notes) escaped",
    "render/text_wrap.h": "text fitted to the terminal",
    "render/analyze/analyze_progress_line.h": "the words of the reading progress line",
    "render/version_text.h": "--version's lines",
}
# What each front end may include besides the public API and its own files: the core's folders,
# and whether FRONT_END_HEADERS holds for it. The CLI and the Python module call the pipeline and
# nothing else; the bench also reads what only it writes or runs (reader/: its summary.json,
# ncu's CSV) and formats its own table.
FRONT_ENDS = {
    # Its own folder, and the bench's headers that it calls where LibTorch is built.
    "src/cli": {"core": ["base", "pipeline"], "headers": True,
                "own": ["cli", "attnprof_bench"]},
    "python": {"core": ["base", "pipeline"], "headers": True, "own": []},
    # The bench's own folders: its sources' subfolders and its public C ABI.
    "bench": {"core": ["base", "io", "reader", "analysis", "render", *STUDY, "pipeline"],
              "headers": False, "own": ["libtorch", "attnprof_bench"]},
}
# Headers of an allowed folder that a front end still may not include: a trace is read and
# analyzed through the pipeline (pipeline/report_inputs.h, attnprof/analysis.h), so that the
# bench's facts are computed as `analyze` computes them.
FORBIDDEN = {
    "src/cli": {},
    "python": {},
    "bench": {"reader/read_trace.h": "read traces through the pipeline",
              "analysis/summarize.h": "analyze traces through the pipeline"},
}
# Known upward includes, as (file, header), each with a comment naming the change that removes it.
# An entry that no longer occurs fails the check too, so that the list only shrinks. None today.
KNOWN = set()

# The renderers, whose comparisons with a string literal are checked.
RENDERERS = ["src/render", "src/study/render"]
# The string comparisons a renderer may make, as (file, literal), each with why the literal is
# data, not an id. An entry that no longer occurs fails the check too.
STRING_COMPARISONS = {
    ("src/render/csv_writer.cpp", '"-"'):
        "a cell that is a lone dash (no value) is no formula: the cell's own text",
    ("src/study/render/report_svg.cpp", '"-0"'):
        "a number formatted as negative zero: the formatted text itself",
    ("src/study/render/report_headline.cpp", '"naive"'):
        "the study's baseline variant, named by the bench (docs/STUDY.md): a domain constant",
}


def folder_of(relative_path):
    """The layer of a file: include/attnprof/x.h -> attnprof, src/reader/x.cpp -> reader,
    src/study/run/x.h -> study/run."""
    parts = relative_path.split(os.sep)
    if parts[0] == "include":
        return "attnprof"
    if len(parts) > 3 and parts[1] == "study":
        return "/".join(parts[1:3])
    return parts[1] if len(parts) > 2 else None


def layer_of_header(header, own_layer):
    """The layer an include names: "study/run/x.h" -> study/run, "reader/x.h" -> reader; a name
    without a folder is the including file's own."""
    parts = header.split("/")
    if len(parts) == 1:
        return own_layer
    if parts[0] == "study" and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def sources(root, tops):
    """(path, path relative to root) of each .h and .cpp below the folders `tops` of root."""
    for top in tops:
        for directory, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith((".h", ".cpp")):
                    path = os.path.join(directory, name)
                    yield path, os.path.relpath(path, root)


def violations(root):
    """(file, line number, included header, why) for each include that runs up or is unknown."""
    found = []
    for path, relative in sources(root, ("include", "src")):
        layer = folder_of(relative)
        if layer == "cli":
            continue  # a front end: front_end_violations
        if layer not in RANK:
            found.append((relative, 0, "", f"folder {layer!r} has no layer"))
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                header = match.group(1)
                target = layer_of_header(header, layer)
                if (layer in IMPORT_STAGE and target == "attnprof"
                        and header not in IMPORT_API):
                    found.append((relative, number, header,
                                  "the import stage includes an analysis's API"))
                elif target not in RANK:
                    found.append((relative, number, header, f"{target!r} is no layer"))
                elif RANK[target] > RANK[layer]:
                    found.append(
                        (relative, number, header, f"{layer} includes {target}, a higher layer"))
    return found + front_end_violations(root)


def front_end_violations(root):
    """(file, line number, included header, why) for each include of a front end it may not make."""
    found = []
    for front_end, allowed in FRONT_ENDS.items():
        for directory, _, files in os.walk(os.path.join(root, front_end)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".cu")):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        match = INCLUDE.match(line)
                        if not match or "/" not in match.group(1):
                            continue  # its own file, beside it
                        header = match.group(1)
                        target = layer_of_header(header, front_end)
                        if header in FORBIDDEN[front_end]:
                            found.append((relative, number, header,
                                          f"{front_end} may not include it: "
                                          f"{FORBIDDEN[front_end][header]}"))
                            continue
                        if target == "attnprof" or target in allowed["core"] or target in allowed["own"]:
                            continue
                        if allowed["headers"] and header in FRONT_END_HEADERS:
                            continue
                        if target in RANK:
                            why = (f"{front_end} includes {header}: call the pipeline "
                                   f"(or list the header in FRONT_END_HEADERS, with its reason)")
                        else:
                            why = f"{target!r} is neither the core nor {front_end}'s own"
                        found.append((relative, number, header, why))
    return found


def code_and_literals(text):
    """`text` with comments blanked and each string literal (raw ones too) replaced by `@N`, and
    the literals; newlines are kept, so that positions keep their line."""
    out, literals, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c == "'":
            end = i + 1
            while end < n and text[end] != "'":
                end += 2 if text[end] == "\\" else 1
            out.append("' '")
            i = end + 1
        elif c == '"' or (c == "R" and text.startswith('R"', i) and not text[i - 1:i].isalnum()):
            if c == "R":
                open_end = text.index("(", i)
                close = ")" + text[i + 2:open_end] + '"'
                end = text.find(close, open_end)
                end = n if end < 0 else end + len(close)
            else:
                end = i + 1
                while end < n and text[end] != '"':
                    end += 2 if text[end] == "\\" else 1
                end += 1
            literal = text[i:end]
            out.append(f"@{len(literals)}" + "\n" * literal.count("\n"))
            literals.append(literal)
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out), literals


# `x == "..."`, `"..." != x`, `x == std::string_view("...")`.
COMPARED = re.compile(r'(?:==|!=)\s*(?:std::string(?:_view)?\s*[({]\s*)?@(\d+)|@(\d+)\s*(?:==|!=)')


def string_comparisons(root):
    """(file, line number, literal) for each comparison of a renderer with a string literal."""
    found = []
    for path, relative in sources(root, RENDERERS):
        with open(path, encoding="utf-8", errors="replace") as f:
            code, literals = code_and_literals(f.read())
        for match in COMPARED.finditer(code):
            literal = literals[int(match.group(1) or match.group(2))]
            found.append((relative, code.count("\n", 0, match.start()) + 1, literal))
    return found


def check_string_comparisons(root):
    comparisons = string_comparisons(root)
    found = [c for c in comparisons if (c[0], c[2]) not in STRING_COMPARISONS]
    for relative, number, literal in found:
        print(f"{relative}:{number}: compares with {literal}: switch on a typed value (an enum "
              f"with its names table, a property of the column or view), or list it in "
              f"STRING_COMPARISONS with its reason")
    seen = {(c[0], c[2]) for c in comparisons}
    for relative, literal in sorted(set(STRING_COMPARISONS) - seen):
        print(f"{relative}:0: {literal} is listed in STRING_COMPARISONS but no longer compared: "
              f"remove it")
        found.append((relative, 0, literal))
    if found:
        print(f"{len(found)} string comparison(s) in the renderers (docs/ARCHITECTURE.md, 'Layers')")
    return not found


def check(root):
    found = [v for v in violations(root) if (v[0], v[2]) not in KNOWN]
    seen = {(v[0], v[2]) for v in violations(root)}
    for relative, header in sorted(KNOWN - seen):
        found.append((relative, 0, header, "listed as known in KNOWN but no longer there: remove it"))
    for relative, number, header, why in found:
        print(f"{relative}:{number}: #include \"{header}\": {why}")
    if found:
        print(f"{len(found)} include(s) against the layers (docs/ARCHITECTURE.md, 'Layers' and "
              f"'Front ends')")
    compared_by_type = check_string_comparisons(root)
    return not found and compared_by_type


def self_test():
    def tree(files):
        root = tempfile.mkdtemp(prefix="layering-")
        for relative, text in files.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return root

    good = tree({
        "include/attnprof/api.h": '#include <string>\n#include "attnprof/result.h"\n',
        "src/model/trace.h": '#include "base/format_units.h"\n#include "attnprof/result.h"\n',
        "src/study/render/r.cpp": '#include "study/analysis/d.h"\n#include "render/x.h"\n'
                                  '#include "study/run/run_summary.h"\n',
        "src/reader/linker.cpp": '#include "reader/linker.h"\n#include "model/trace.h"\n',
        "src/cli/main.cpp": '#include "pipeline/x.h"\n#include "attnprof_bench/bench.h"\n'
                            '#include "cli/commands.h"\n#include "io/output_file.h"\n'
                            '#include "render/output_format.h"\n#include "base/clamp32.h"\n',
        "bench/src/study.cpp": '#include "study.h"\n#include "pipeline/report_inputs.h"\n'
                               '#include "libtorch/variants.h"\n#include "attnprof/result.h"\n',
        "python/m.cpp": '#include "command_bindings.h"\n#include "pipeline/report_file.h"\n'
                        '#include "render/text_wrap.h"\n',
        "bench/src/table.cpp": '#include "study/render/report.h"\n'
                               '#include "study/run/run_summary.h"\n',
    })
    cases = {
        "model includes reader": {"src/model/trace.h": '#include "reader/kineto_format.h"\n'},
        "analysis includes render": {"src/analysis/f.cpp": '  #  include "render/format_units.h"\n'},
        "the API includes src": {"include/attnprof/a.h": '#include "model/trace.h"\n'},
        "render includes pipeline": {"src/render/x.h": '#include "pipeline/report_inputs.h"\n'},
        "the study's report includes pipeline":
            {"src/study/render/report.h": '#include "pipeline/report_inputs.h"\n'},
        "a trace analysis includes the study":
            {"src/analysis/x.cpp": '#include "study/run/run_summary.h"\n'},
        "the trace renderers include the study":
            {"src/render/x.cpp": '#include "study/analysis/report_data.h"\n'},
        "the study's model includes its analyses":
            {"src/study/run/x.h": '#include "study/analysis/report_data.h"\n'},
        "the import stage includes an analysis header":
            {"src/reader/x.cpp": '#include "attnprof/analysis.h"\n'},
        "a folder with no layer": {"src/extra/x.cpp": '#include "io/byte_stream.h"\n'},
        "the bench's headers outside cli": {"src/io/x.cpp": '#include "attnprof_bench/b.h"\n'},
        "a layer includes the CLI": {"src/pipeline/x.cpp": '#include "cli/commands.h"\n'},
        "cli runs an analysis": {"src/cli/x.cpp": '#include "analysis/summarize.h"\n'},
        "cli renders": {"src/cli/x.cpp": '#include "render/analyze/analyze_output.h"\n'},
        "cli reads a file by hand": {"src/cli/x.cpp": '#include "io/side_file.h"\n'},
        "cli reads the model": {"src/cli/x.cpp": '#include "model/trace.h"\n'},
        "cli reads a trace": {"src/cli/x.cpp": '#include "reader/read_trace.h"\n'},
        "cli reads a run folder by hand": {"src/cli/x.cpp": '#include "study/run/run_summary.h"\n'},
        "cli includes python": {"src/cli/x.cpp": '#include "python/command_bindings.h"\n'},
        "python renders": {"python/m.cpp": '#include "render/diff/diff_output.h"\n'},
        "python renders the study's report": {"python/m.cpp": '#include "study/render/report.h"\n'},
        "python runs an analysis": {"python/m.cpp": '#include "analysis/kernels/kernel_class.h"\n'},
        "python lists a folder by hand": {"python/m.cpp": '#include "io/trace_directory.h"\n'},
        "the bench reads the model": {"bench/src/x.cpp": '#include "model/trace.h"\n'},
        "the bench includes the CLI": {"bench/src/x.cpp": '#include "cli/commands.h"\n'},
        "the bench reads a trace by hand": {"bench/src/x.cpp": '#include "reader/read_trace.h"\n'},
        "the bench summarizes a trace by hand":
            {"bench/src/x.cpp": '#include "analysis/summarize.h"\n'},
        "python includes the bench": {"python/m.cpp": '#include "libtorch/variants.h"\n'},
        "python includes the model": {"python/m.cpp": '#include "model/trace.h"\n'},
        "python reads a trace by hand": {"python/m.cpp": '#include "reader/read_trace.h"\n'},
    }
    ok = True
    if violations(good):
        print("self-test: a tree that keeps to the layers was reported:", violations(good))
        ok = False
    for what, files in cases.items():
        found = violations(tree(files))
        if len(found) != 1:
            print(f"self-test: {what}: expected one violation, got {found}")
            ok = False
    comparing = {
        "a renderer compares an id":
            ("src/render/x.cpp", 'bool a(const V& v) { return v.id == "attention"; }\n'),
        "the study's renderer compares a status":
            ("src/study/render/x.cpp", 'if ("ok" != v.status) return;\n'),
        "a renderer compares a string_view of a header":
            ("src/render/x.cpp", 'const bool n = h != std::string_view("grid");\n'),
        "a comparison over two lines": ("src/render/x.cpp", 'return roof ==\n    "memory";\n'),
    }
    for what, (relative, text) in comparing.items():
        found = string_comparisons(tree({relative: text}))
        if len(found) != 1:
            print(f"self-test: {what}: expected one string comparison, got {found}")
            ok = False
    not_comparing = tree({"src/render/y.cpp":
                          '// a comment: x == "y"\n/* v == "w" */\nput(out, "a == \\"b\\"");\n'
                          'put(out, R"(<p>if (a == "b")</p>)");\nif (c == \'"\') f("x", k != 2);\n'})
    if string_comparisons(not_comparing):
        print("self-test: comments, literals and a char were taken for comparisons:",
              string_comparisons(not_comparing))
        ok = False
    print("self-test:", "passed" if ok else "FAILED")
    return ok


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    passed = self_test() if sys.argv[1] == "--self-test" else check(sys.argv[1])
    sys.exit(0 if passed else 1)
