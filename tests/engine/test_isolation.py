"""games/engine imports nothing from Django or Channels (RULES.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE_DIR = Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN = ("django", "channels", "daphne", "channels_redis")
ENGINE_FILES = sorted(ENGINE_DIR.rglob("*.py"))
FUNCS = ("import_module", "__import__")  # importlib.import_module("django"), __import__


def forbidden_imports(source: str, module: str) -> list[str]:
    """The imports in ``source`` (module ``module``, e.g. games.engine.rules) that
    reach Django or Channels, or leave games.engine for the Django app around it."""
    package = module.split(".")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's package
                base = package[: len(package) - node.level]
                names = [".".join([*base, *([node.module] if node.module else [])])]
            else:
                names = [node.module or ""]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Name, ast.Attribute))
            and getattr(node.func, "id", getattr(node.func, "attr", "")) in FUNCS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            inside_engine = name == "games.engine" or name.startswith("games.engine.")
            if top in FORBIDDEN or (top == "games" and not inside_engine):
                found.append(f"line {node.lineno}: {name}")
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE_DIR.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_engine_has_modules_to_check() -> None:
    assert ENGINE_DIR / "__init__.py" in ENGINE_FILES


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda path: path.name)
def test_no_engine_module_imports_django_or_channels(path: Path) -> None:
    module = module_name(path)
    if path.name == "__init__.py":
        module += ".__init__"  # so relative imports resolve against the package itself
    assert forbidden_imports(path.read_text(), module) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "import django.db.models as m",
        "from django.conf import settings",
        "from channels.layers import get_channel_layer",
        "import os, channels",
        "def f():\n    from django import db",
        "from games import models",
        "from .. import models",
        "from ..views import index",
        "import importlib\nimportlib.import_module('django.db')",
        "__import__('channels')",
    ],
)
def test_the_import_check_catches_django_and_channels_in_every_form(source: str) -> None:
    assert forbidden_imports(source, "games.engine.rules") != []


@pytest.mark.parametrize(
    "source",
    ["import random", "from . import cards", "from .rules import apply", "import games.engine"],
)
def test_the_import_check_allows_the_standard_library_and_the_engine_itself(source: str) -> None:
    assert forbidden_imports(source, "games.engine.rules") == []


def test_importing_the_engine_loads_no_django_or_channels_module() -> None:
    code = (
        "import sys, games.engine\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE_DIR.parents[1],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ENGINE_DIR.parents[1])},
    )
    assert result.stdout.strip() == ""
