"""Builds the Python module's compiled half with the project's CMake (pyproject.toml says how to
install). Only the module and the core library it links are built: no command line, tests,
benchmarks or GPU bench.

Each step prints a line (`pip install -v` shows them, and ninja's [n/N] count as it compiles).
With ATTNPROF_BUILD_DIR set to a build folder that has built the module (scripts/configure.sh,
scripts/run-main.sh: build/release), that build is installed as it is, without compiling again.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(attnprof VERSION ([0-9.]+)", f.read()).group(1)


def step(message):
    print(f"attnprof: {message}", file=sys.stderr, flush=True)


def run(command):
    step("$ " + " ".join(command))
    subprocess.check_call(command)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        started = time.monotonic()
        existing = os.environ.get("ATTNPROF_BUILD_DIR")
        if existing:
            build = os.path.join(ROOT, existing)
            step(f"installing the module that {build} built (ATTNPROF_BUILD_DIR)")
        else:
            build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            step(f"configuring the module's build in {build}")
            run(["cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
                 "-DATTNPROF_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
                 "-DATTNPROF_BUILD_TESTS=OFF", "-DATTNPROF_BUILD_BENCHMARKS=OFF",
                 "-DATTNPROF_BUILD_CLI=OFF"])
            step("compiling the core library and the module (minutes on 2 cores)")
        # In a build that is up to date this compiles nothing: it only checks.
        run(["cmake", "--build", build, "--target", "attnprof_python", "--parallel"])
        built = os.path.join(build, "python", "attnprof")
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        library = os.path.join(built, "_attnprof" + suffix)
        if not os.path.exists(library):
            found = [f for f in os.listdir(built) if f.startswith("_attnprof.")]
            raise RuntimeError(
                f"attnprof: {built} holds no _attnprof{suffix} for this Python "
                f"({sys.executable}), but {found or 'nothing'}: install with the Python "
                f"the build was configured for, or without ATTNPROF_BUILD_DIR")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(library, target)
        step(f"module ready in {time.monotonic() - started:.0f} s")


setup(
    version=version(),
    packages=["attnprof"],
    package_dir={"": "python"},
    ext_modules=[Extension("attnprof._attnprof", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
