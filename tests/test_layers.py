"""The package's imports read one way: no import from a higher layer (``kiosk/layers.py``)
or from another package of the same layer, and no circle between modules. Imports inside
functions count: hiding one there does not make a loop go away."""

from __future__ import annotations

import ast
from pathlib import Path

from kiosk.layers import REFEREE_NEEDS, layer, part

ROOT = Path(__file__).resolve().parents[1] / "kiosk"

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports() -> dict[str, set[str]]:
    """Every kiosk module -> the kiosk modules it imports (anywhere in its code)."""
    modules = {module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                # "from kiosk.rules import moves" imports a module; otherwise a name
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            found.update(t for t in targets if t.split(".")[0] == "kiosk" and t != name)
        graph[name] = {t for t in found if t in modules}
    return graph


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(module, imported part) pairs that import a higher layer or a sibling of the same."""
    wrong = set()
    for module, targets in graph.items():
        here = part(module)
        for target in targets:
            there = part(target)
            if here == there or not there:
                continue
            if layer(there) >= layer(here):
                wrong.add((module, f"kiosk.{there}"))
    return wrong


def circles(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Each group of modules that import one another in a circle (Tarjan's components).

    A package's ``__init__`` importing its own modules, which import names from the
    package, is no circle: a module importing its own package counts as importing the
    modules the package re-exports, so those edges are left out."""
    edges = {
        m: {t for t in ts if not (m.startswith(t + ".") and t in graph)} for m, ts in graph.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[tuple[str, str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.add(("circle", " ".join(sorted(group))))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_part_of_the_package_has_a_layer() -> None:
    for module in imports():
        if part(module):
            layer(part(module))


def test_no_import_upward_and_no_circle() -> None:
    graph = imports()
    found = upward(graph) | circles(graph)
    assert found == set(), "imports against the layers in kiosk/layers.py"


def test_the_rig_stands_above_the_game_core() -> None:
    """The scenario and lesson drivers are the rig's, and the game core uses none of it."""
    graph = imports()
    assert {"kiosk.rig.scenario", "kiosk.rig.stepped", "kiosk.rig.lessons"} <= graph.keys()
    assert layer("rig") == layer("play") + 1
    assert not {
        (m, t) for m, ts in graph.items() if part(m) == "play" for t in ts if part(t) == "rig"
    }


def test_the_referee_imports_only_the_rules_the_table_and_the_events() -> None:
    graph = imports()
    found = {
        (module, part(target))
        for module, targets in graph.items()
        if part(module) == "referee"
        for target in targets
        if part(target) not in REFEREE_NEEDS
    }
    assert found == set()


def test_the_walk_sees_imports_inside_functions() -> None:
    graph = {"kiosk.rules.a": {"kiosk.display.b"}, "kiosk.display.b": set()}
    assert upward(graph) == {("kiosk.rules.a", "kiosk.display")}
    loop = {"kiosk.x.a": {"kiosk.x.b"}, "kiosk.x.b": {"kiosk.x.a"}}
    assert circles(loop) == {("circle", "kiosk.x.a kiosk.x.b")}
    source = "def f():\n    from kiosk.display import view\n"
    inner = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)]
    assert inner and inner[0].module == "kiosk.display"

