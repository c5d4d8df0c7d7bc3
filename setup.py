"""Build of the Cython extension in ext/ (the window). Metadata is in pyproject.toml.

VOYAGER_EXT_DEBUG=1 builds with bounds checks and asserts on; VOYAGER_EXT_ANNOTATE=1
writes Cython's HTML annotation beside each .pyx.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("VOYAGER_EXT_DEBUG") == "1"
directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": debug,
    "initializedcheck": debug,
    "cdivision": True,
    "embedsignature": True,
}
extensions = [
    Extension("ext.scan", ["ext/scan.pyx"], extra_compile_args=["-O3"] if not debug else ["-O0", "-g"]),
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives,
                            annotate=os.environ.get("VOYAGER_EXT_ANNOTATE") == "1"))
