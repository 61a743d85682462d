"""The solver's compiled core: a C extension, built with the package by the system compiler.

Everything else about the package is declared in pyproject.toml.
"""

from setuptools import Extension, setup  # type: ignore[import-untyped]

setup(
    ext_modules=[
        Extension(
            "games.engine.solver._core",
            sources=["games/engine/solver/_core.c"],
            extra_compile_args=["-O2", "-std=gnu11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ]
)
