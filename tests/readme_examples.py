#!/usr/bin/env python3
"""The README's example outputs against what the commands print today.

Every fenced block of README.md without a language is an example output, and says how it is
made in one of two ways:
  - its lines that begin with `$ ` are shell commands, each followed by what it prints (stdout
    and stderr together), as a terminal shows them;
  - or the line before the fence is `<!-- output of: COMMAND -->` and the block is all that
    COMMAND prints.
A Markdown quote (lines that begin with `>`) after `<!-- quoted output of: COMMAND -->` is what
COMMAND prints, each line quoted, so that Markdown shows it as the page would.
A line `... words ...` in an output stands for any lines (none included). A `python` block with
`>>>` lines is run as a doctest against the module the build made. A block with another language
(sh, text) is code to read, not an output, and is not run.

The commands run in a scratch folder that holds the repository's tests/, examples/, docs/ and
python/ (so files they write go nowhere), with LC_ALL=C.UTF-8, and `attnprof` is the build's.

    readme_examples.py ATTNPROF [PYTHON_DIR]           fails naming each stale block
    readme_examples.py --update ATTNPROF [PYTHON_DIR]  writes the outputs again (blocks without
                                                       `... ...` lines), then review git diff
"""
import difflib
import doctest
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
MARKER = re.compile(r"^<!-- output of: (.*) -->$")
QUOTED = re.compile(r"^<!-- quoted output of: (.*) -->$")
ELISION = re.compile(r"^\s*\.\.\. .* \.\.\.$")


class Block:
    def __init__(self, line, language, lines, marker):
        self.line = line  # 1-based line of the opening fence
        self.language = language
        self.lines = lines  # the block's lines, without the fences
        self.marker = marker  # the command of a preceding `output of` comment, or None
        self.indent = ""


class Quote:
    """A quote's lines, replaced as a block's are."""

    def __init__(self, lines):
        self.lines = lines
        self.indent = ""


def blocks(text):
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, language = fence.group(1), fence.group(2)
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        previous = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        marker = MARKER.match(previous.strip())
        block = Block(i + 1, language, [l[len(indent):] for l in lines[i + 1:j]],
                      marker.group(1) if marker else None)
        block.indent = indent
        yield block
        i = j + 1


def quotes(text):
    """(line index of the quote's first line, its command, its lines unquoted) of each quote
    that follows a `quoted output of` comment."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        marker = QUOTED.match(line.strip())
        if not marker:
            continue
        j = i + 1
        while j < len(lines) and lines[j].startswith(">"):
            j += 1
        yield i + 1, marker.group(1), [l[2:] if l.startswith("> ") else l[1:] for l in lines[i + 1:j]]


def scratch_folder():
    tmp = tempfile.TemporaryDirectory()
    for name in ("tests", "examples", "docs", "python"):
        os.symlink(os.path.join(ROOT, name), os.path.join(tmp.name, name))
    return tmp


def run(command, cwd, bin_dir):
    env = dict(os.environ, LC_ALL="C.UTF-8", PATH=bin_dir + os.pathsep + os.environ["PATH"])
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.stdout.rstrip("\n").split("\n") if done.stdout else []


def matches(expected, got):
    pattern = ""
    for line in expected:
        pattern += r"(?:[^\n]*\n)*?" if ELISION.match(line) else re.escape(line) + r"\n"
    return re.fullmatch(pattern, "".join(line + "\n" for line in got)) is not None


def commands_and_outputs(block):
    """[(command, expected lines)] of a block, or None when it is not an example output."""
    if block.marker is not None:
        return [(block.marker, block.lines)]
    pairs = []
    continued = False  # the command's last line ended in a backslash
    for line in block.lines:
        if continued:
            pairs[-1] = (pairs[-1][0] + "\n" + line, [])
        elif line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
        else:
            return None
        continued = line.endswith("\\") and not pairs[-1][1]
    return pairs


def check_python(block, python_dir):
    text = "\n".join(block.lines) + "\n"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, f"README.md:{block.line}", README, block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    cwd = os.getcwd()
    sys.path.insert(0, python_dir)
    try:
        os.chdir(ROOT)
        runner.run(test)
    finally:
        os.chdir(cwd)
        sys.path.remove(python_dir)
    return runner.failures == 0


def main():
    update = sys.argv[1] == "--update"
    args = sys.argv[2:] if update else sys.argv[1:]
    bin_dir = os.path.dirname(os.path.abspath(args[0]))
    python_dir = os.path.abspath(args[1]) if len(args) > 1 else None
    with open(README) as f:
        text = f.read()
    failed, checked = [], 0
    replacements = {}
    with scratch_folder() as tmp:
        for block in blocks(text):
            if block.language == "python" and any(l.startswith(">>>") for l in block.lines):
                if python_dir is None:
                    print(f"README.md:{block.line}: Python example not run (no module built)")
                    continue
                checked += 1
                if not check_python(block, python_dir):
                    failed.append(block.line)
                continue
            if block.language:
                continue
            pairs = commands_and_outputs(block)
            if pairs is None:
                print(f"README.md:{block.line}: an output block that says no command (a `$ ` "
                      f"line, or <!-- output of: COMMAND --> before it)")
                failed.append(block.line)
                continue
            checked += 1
            fresh = []
            stale = False
            for command, expected in pairs:
                got = run(command, tmp, bin_dir)
                if block.marker is None:
                    fresh.extend(("$ " + command).split("\n"))
                fresh.extend(got)
                if not matches(expected, got):
                    stale = True
                    if not update:
                        print(f"README.md:{block.line}: `{command}` prints otherwise now:")
                        sys.stdout.writelines(difflib.unified_diff(
                            [l + "\n" for l in expected], [l + "\n" for l in got],
                            "README.md", "now", n=1))
            if stale:
                if update and not any(ELISION.match(l) for l in block.lines):
                    replacements[block.line] = (block, fresh)
                else:
                    failed.append(block.line)
        for start, command, expected in quotes(text):
            checked += 1
            got = run(command, tmp, bin_dir)
            if got != expected:
                if update:
                    replacements[start] = (Quote(expected), [("> " + l) if l else ">" for l in got])
                else:
                    print(f"README.md:{start + 1}: `{command}` prints otherwise now:")
                    sys.stdout.writelines(difflib.unified_diff(
                        [l + "\n" for l in expected], [l + "\n" for l in got], "README.md", "now",
                        n=1))
                    failed.append(start + 1)
    if update and replacements:
        lines = text.split("\n")
        for start in sorted(replacements, reverse=True):
            block, fresh = replacements[start]
            end = start + len(block.lines)
            lines[start:end] = [(block.indent + l) if l else l for l in fresh]
            print(f"README.md:{start}: written again")
        with open(README, "w") as f:
            f.write("\n".join(lines))
    if failed:
        print(f"readme_examples: {len(failed)} of {checked} example(s) stale or unmade, at "
              f"README.md lines {', '.join(map(str, failed))}; after an intended change: "
              f"tests/readme_examples.py --update ATTNPROF PYTHON_DIR, then review git diff")
        return 1
    print(f"readme_examples: the {checked} examples of README.md are what the commands print")
    return 0


if __name__ == "__main__":
    sys.exit(main())
