"""The layout is the architecture: games/ holds Django's files and one room per
concern, each room says in its docstring what it may import, and the code
keeps to it (docs/architecture.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "games"
# What Django expects at the top of an app, and nothing else.
DJANGO_FILES = {"__init__.py", "apps.py", "urls.py", "health.py"}
DJANGO_DIRS = {"admin", "management", "migrations", "models", "templatetags", "templates", "locale"}
ROOMS = sorted(
    p.name for p in GAMES.iterdir() if p.is_dir() and p.name not in {*DJANGO_DIRS, "__pycache__"}
)


def module_name(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, *, top_level_only: bool) -> set[str]:
    """The games.* modules `path` imports (at module level only, if asked)."""
    tree = ast.parse(path.read_text())
    nodes: list[ast.AST] = list(tree.body) if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.If) and top_level_only:
            continue  # TYPE_CHECKING blocks
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("games"))
    return found


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def allowed_rooms(room: str) -> set[str] | None:
    """The rooms the room's docstring allows (None: "every other room")."""
    doc = ast.get_docstring(ast.parse((GAMES / room / "__init__.py").read_text())) or ""
    match = re.search(r"May import:(.*)", doc, re.S)
    assert match, f"games/{room}/__init__.py does not say what it may import"
    text = match.group(1)
    if "every other room" in text:
        return None
    return {name for name in re.findall(r"games\.(\w+)", text)}


def test_games_holds_only_what_django_expects_and_the_rooms() -> None:
    files = {p.name for p in GAMES.iterdir() if p.is_file()}
    assert files <= DJANGO_FILES, f"move these into a room: {sorted(files - DJANGO_FILES)}"


@pytest.mark.parametrize("room", ROOMS)
def test_every_room_says_what_lives_there_and_what_it_may_import(room: str) -> None:
    doc = ast.get_docstring(ast.parse((GAMES / room / "__init__.py").read_text()))
    assert doc, f"games/{room}/__init__.py needs a docstring"
    assert len(doc) > 80, f"games/{room}/__init__.py: say what lives there"
    allowed_rooms(room)


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_imports_only_what_its_docstring_allows(room: str) -> None:
    allowed = allowed_rooms(room)
    if allowed is None:
        return
    allowed |= {room}
    wrong = {
        f"{path.relative_to(GAMES.parent)} imports {module}"
        for path in (GAMES / room).rglob("*.py")
        for module in imports(path, top_level_only=False)
        if room_of(module) not in allowed and module != "games"
    }
    assert not wrong, sorted(wrong)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
    return name == "TYPE_CHECKING"


def _is_submodule(package: str, name: str) -> bool:
    """Whether `from package import name` imports a module (a .py, a package, a
    compiled extension), not a name the package defines."""
    folder = GAMES.parent.joinpath(*package.split("."))
    return (folder / name).is_dir() or any(folder.glob(f"{name}.*"))


def import_edges(path: Path) -> set[str]:
    """The games.* modules `path` imports, wherever the import stands: one inside a
    function is deferred, not gone, and still ties the two modules together. Only
    `if TYPE_CHECKING:` blocks are left out (never run)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for branch in node.orelse:
                visit(branch)
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
            for alias in node.names:
                submodule = _is_submodule(node.module, alias.name)
                found.add(f"{node.module}.{alias.name}" if submodule else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("games"))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in GAMES.rglob("*.py") if "migrations" not in p.parts}
    return {
        name: {m for m in import_edges(path) if m in modules and m != name}
        for name, path in modules.items()
    }


def test_no_two_modules_import_each_other_even_inside_a_function() -> None:
    cycles = _cycles(import_graph())
    assert not cycles, cycles


def test_a_deferred_import_is_a_cycle_all_the_same(tmp_path: Path) -> None:
    """The rule's own check: a function's import counts, a TYPE_CHECKING one does not."""
    deferred = tmp_path / "deferred.py"
    deferred.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from games.store import services\n"
        "def later():\n    from games.races.outbox import race_change\n"
        "    from games.engine.solver import search\n"
    )
    assert import_edges(deferred) == {"games.races.outbox", "games.engine.solver.search"}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _rooms_above(room: str, graph: dict[str, set[str]]) -> set[str]:
    """The rooms whose modules reach `room`'s, through any chain of imports."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph.items():
        edges.setdefault(room_of(module), set()).update(room_of(t) for t in targets)
    above: set[str] = set()
    changed = True
    while changed:
        changed = False
        for source, targets in edges.items():
            if source not in above and source != room and targets & (above | {room}):
                above.add(source)
                changed = True
    return above


def test_the_store_imports_no_room_above_it_even_inside_a_function() -> None:
    """The event store is below the rooms that write through it (#23): it never imports
    games.races, nor any room that reaches the store, deferred imports included."""
    graph = import_graph()
    above = _rooms_above("store", graph) | {"races"}
    assert {"races", "practice", "daily", "challenges", "tournaments"} <= above
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if room_of(module) == "store"
        for target in targets
        if room_of(target) in above
    )
    assert not wrong, wrong


def callbacks_taken(path: Path) -> set[str]:
    """The public functions of `path` that take a callable from their caller: a hook a
    room above hands down so that the code below calls back up into it."""
    tree = ast.parse(path.read_text())
    aliases = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign) and "Callable" in ast.unparse(node.value)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    found: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("_"):
            continue  # the module's own wrappers (a decorator takes the function it wraps)
        for arg in [*node.args.args, *node.args.kwonlyargs]:
            text = ast.unparse(arg.annotation) if arg.annotation else ""
            if "Callable" in text or any(re.search(rf"\b{a}\b", text) for a in aliases):
                found.add(f"{node.name}({arg.arg}: {text})")
    return found


def test_nothing_in_the_store_calls_back_up() -> None:
    """The store's writers take no hook: what a race does with a move (its version, its
    announcement) is written by the race, around the store's append (#23)."""
    taken = {
        f"{path.relative_to(GAMES.parent)}: {hook}"
        for path in (GAMES / "store").rglob("*.py")
        for hook in callbacks_taken(path)
    }
    assert not taken, sorted(taken)


def test_a_hook_handed_down_is_a_callback(tmp_path: Path) -> None:
    """The rule's own check: a Callable parameter, directly or through an alias, counts."""
    module = tmp_path / "hooked.py"
    module.write_text(
        "from collections.abc import Callable\n"
        "Hook = Callable[[int], None]\n"
        "def append(*, seq: int, on_version: Hook | None = None) -> None: ...\n"
        "def close(done: Callable[[], None]) -> None: ...\n"
        "def _wrap(append: Callable[[], None]) -> None: ...\n"
    )
    assert callbacks_taken(module) == {
        "append(on_version: Hook | None)",
        "close(done: Callable[[], None])",
    }


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found
