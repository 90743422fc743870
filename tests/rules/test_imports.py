"""The rules package's modules import one another one way: no circle, and no import
inside a function (where one would only hide a loop)."""

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "kiosk" / "rules"


def module_imports() -> dict[str, set[str]]:
    """Each module of kiosk.rules -> the modules of kiosk.rules it imports (anywhere)."""
    names = {p.stem for p in RULES.glob("*.py")} - {"__init__"}
    graph: dict[str, set[str]] = {}
    for name in names:
        tree = ast.parse((RULES / f"{name}.py").read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kiosk.rules"):
                target = node.module.removeprefix("kiosk.rules").lstrip(".")
                found |= {a.name for a in node.names if a.name in names} if not target else {target}
        graph[name] = found & names
    return graph


def test_no_circle():
    try:
        order = list(TopologicalSorter(module_imports()).static_order())
    except CycleError as err:
        raise AssertionError(f"import circle in kiosk.rules: {err.args[1]}") from None
    assert order.index("board") < order.index("position") < order.index("moves")


def test_no_import_inside_a_function():
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{path.name}: {node.name} imports inside the function"
