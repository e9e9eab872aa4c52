"""Builds the Python module's compiled half with the project's CMake (pyproject.toml says how to
install). Only the module is built: no command line, tests, benchmarks or GPU bench."""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(attnprof VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call([
            "cmake", "-S", ROOT, "-B", build, *generator, "-DCMAKE_BUILD_TYPE=Release",
            "-DATTNPROF_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}",
            "-DATTNPROF_BUILD_TESTS=OFF", "-DATTNPROF_BUILD_BENCHMARKS=OFF",
            "-DATTNPROF_BUILD_CLI=OFF"])
        subprocess.check_call(["cmake", "--build", build, "--target", "attnprof_python"])
        built = os.path.join(build, "python", "attnprof")
        library = next(f for f in os.listdir(built) if f.startswith("_attnprof."))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, library), target)


setup(
    version=version(),
    packages=["attnprof"],
    package_dir={"": "python"},
    ext_modules=[Extension("attnprof._attnprof", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
