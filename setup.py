"""Build of the Cython extension in ext/ (the window, the chunk codec and its NZB writer). Metadata is in pyproject.toml.

VOYAGER_EXT_DEBUG=1 builds with bounds checks and asserts on; VOYAGER_EXT_ANNOTATE=1
writes Cython's HTML annotation beside each .pyx.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("VOYAGER_EXT_DEBUG") == "1"
directives = {
    "language_level": 3,
    # Python-level indexing stays checked (a wrong index is an IndexError, not a
    # crash); the hot paths work on raw pointers, which these do not touch.
    "boundscheck": True,
    "wraparound": True,
    "initializedcheck": debug,
    "cdivision": True,
    "embedsignature": True,
}
extensions = [
    Extension("ext.scan", ["ext/scan.pyx"], extra_compile_args=["-O3"] if not debug else ["-O0", "-g"]),
    Extension("ext.codec", ["ext/codec.pyx"], extra_compile_args=["-O3"] if not debug else ["-O0", "-g"]),
    Extension("ext.subject", ["ext/subject.pyx"], extra_compile_args=["-O3"] if not debug else ["-O0", "-g"]),
    Extension("ext.window", ["ext/window.pyx"], extra_compile_args=["-O3"] if not debug else ["-O0", "-g"]),
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=os.environ.get("VOYAGER_EXT_ANNOTATE") == "1"))
