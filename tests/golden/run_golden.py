#!/usr/bin/env python3
"""Golden outputs: each case of tests/golden/cases.tsv runs attnprof from the repository's root
and compares its whole output (exit code and stdout; for {OUT}, the file it wrote) with
tests/golden/NAME.out, byte for byte, as Perfetto's diff tests do. A substring check passes with a
value in the wrong column; a whole output does not.

    run_golden.py ATTNPROF NAME          one case (CTest runs each as golden.NAME)
    run_golden.py --update ATTNPROF      write every NAME.out again, after an intended change;
                                         review the diff (git diff tests/golden) before committing
"""
import difflib
import gzip
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cases():
    with open(os.path.join(HERE, "cases.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, args = line.rstrip("\n").split("\t", 1)
                yield name, args


def run(attnprof, args):
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "out")
        argv = [a.replace("{OUT}", out_file) for a in shlex.split(args)]
        done = subprocess.run([attnprof, *argv], cwd=ROOT, capture_output=True,
                              env=dict(os.environ, LC_ALL="C.UTF-8"))
        body = done.stdout
        written = [a for a in argv if a.startswith(out_file)]
        if written and os.path.exists(written[0]):
            with open(written[0], "rb") as f:
                body = f.read()
            if body[:2] == b"\x1f\x8b":
                body = gzip.decompress(body)
        return f"exit {done.returncode}\n".encode() + body


def main():
    if sys.argv[1] == "--update":
        attnprof = os.path.abspath(sys.argv[2])
        for name, args in cases():
            with open(os.path.join(HERE, name + ".out"), "wb") as f:
                f.write(run(attnprof, args))
        return 0
    attnprof, wanted = os.path.abspath(sys.argv[1]), sys.argv[2]
    args = dict(cases())[wanted]
    got = run(attnprof, args)
    with open(os.path.join(HERE, wanted + ".out"), "rb") as f:
        expected = f.read()
    if got == expected:
        return 0
    diff = difflib.unified_diff(expected.decode("utf-8", "replace").splitlines(),
                                got.decode("utf-8", "replace").splitlines(),
                                f"tests/golden/{wanted}.out", f"attnprof {args}", lineterm="")
    print("\n".join(list(diff)[:200]))
    print(f"\n{wanted}: the output differs from tests/golden/{wanted}.out; if the change is "
          f"intended, run tests/golden/run_golden.py --update build/release/attnprof and review "
          f"git diff tests/golden", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
