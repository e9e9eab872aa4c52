"""How the module is found: a package folder whose compiled half is missing (a build folder
configured but not built, or a stale copy) fails at `import attnprof` with a line that says what
to build, not later with "module 'attnprof' has no attribute 'read'"."""

import os
import shutil
import subprocess
import sys

import attnprof

PACKAGE = os.path.dirname(attnprof.__file__)


def test_a_package_without_its_compiled_half_says_what_to_build(tmp_path):
    copy = tmp_path / "attnprof"
    copy.mkdir()
    for name in os.listdir(PACKAGE):
        if name.endswith(".py"):
            shutil.copy(os.path.join(PACKAGE, name), copy / name)
    run = subprocess.run([sys.executable, "-c", "import attnprof"], cwd=tmp_path,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path)),
                         capture_output=True, text=True)
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: attnprof: the compiled part of the module (_attnprof)")
    assert "scripts/configure.sh --target attnprof_python" in last


def test_the_build_folder_holds_every_python_file_of_the_package():
    source = os.path.join(os.environ["ATTNPROF_SOURCE_DIR"], "python", "attnprof")
    wanted = sorted(f for f in os.listdir(source) if f.endswith(".py"))
    assert wanted == sorted(f for f in os.listdir(PACKAGE) if f.endswith(".py"))
    assert "distributed.py" in wanted
