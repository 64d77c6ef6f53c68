"""The layers hold (the import-linter contracts in pyproject.toml) and no module imports itself
round a circle. Imports made only for type checking do not count: they never run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("table", "vision", "firmware_bridge", "web_ui")


def test_the_import_contracts_are_kept() -> None:
    # In a process of its own: import-linter's command configures logging with dictConfig,
    # which would silence the loggers of modules other tests have imported.
    linted = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         f"sys.exit(lint_imports(config_filename={str(ROOT / 'pyproject.toml')!r}, "
         "no_cache=True, no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert linted.returncode == 0, linted.stdout + linted.stderr


def _circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The groups of modules that import each other round a circle (Tarjan's strongly
    connected components of more than one module, or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1 or module in graph.find_modules_directly_imported_by(module):
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)
    assert len(graph.modules) > 50
    assert _circles(graph) == []
