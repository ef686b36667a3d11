"""Builds Detent's C interface (libDetentC.so) with SwiftPM and puts it in the package.

The library is built from the Detent source tree this folder belongs to (or the one
DETENT_SOURCE names), in release mode, in that tree's own `.build` folder: after
`Scripts/setup` it is already built and this step only checks it.
"""
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel


def source_tree():
    tree = os.environ.get("DETENT_SOURCE") or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not os.path.isfile(os.path.join(tree, "Package.swift")):
        sys.exit(f"detent: {tree} is not the Detent source tree (no Package.swift): set DETENT_SOURCE")
    return tree


class BuildWithSwift(build_py):
    def run(self):
        tree = source_tree()
        # The flags Scripts/setup builds `detent` with, so the two builds share their work.
        command = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "DetentC"]
        try:
            subprocess.run(command, cwd=tree, check=True, stdout=sys.stderr)
            folder = subprocess.run(command + ["--show-bin-path"], cwd=tree, check=True,
                                    capture_output=True, text=True).stdout.strip()
        except FileNotFoundError:
            sys.exit("detent: swift is not on PATH: install Swift (Scripts/setup in the Detent tree)")
        except subprocess.CalledProcessError as error:
            sys.exit(f"detent: building libDetentC.so failed ({' '.join(command)}: status {error.returncode})")
        super().run()
        target = os.path.join(self.build_lib, "detent")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(os.path.join(folder, "libDetentC.so"), os.path.join(target, "libDetentC.so"))


class AnyPythonWheel(bdist_wheel):
    """A wheel for any Python 3 on this platform: the library is loaded through ctypes, so
    nothing in it is tied to one Python version or its ABI (`py3-none-PLATFORM`)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


class BinaryDistribution(Distribution):
    """A wheel for this platform only: it holds a compiled library."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithSwift, "bdist_wheel": AnyPythonWheel}, distclass=BinaryDistribution)
