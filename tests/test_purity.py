"""The rules core stays pure: no hardware, I/O, threads, clocks or global randomness."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "table" / "rules"
FORBIDDEN_MODULES = {
    "cv2", "serial", "gpiozero", "flask", "vision", "firmware_bridge", "web_ui", "picamera2",
    "waitress", "numpy", "os", "io", "socket", "threading", "multiprocessing", "subprocess",
    "time", "datetime", "sqlite3", "pathlib", "shutil", "tempfile", "asyncio", "queue",
    "selectors", "signal", "urllib", "http", "logging",
}
# Names that touch files or the clock, or global randomness, even without an import.
FORBIDDEN_CALLS = {"open", "input", "print", "exec", "eval", "__import__"}
FORBIDDEN_RANDOM = {"random", "randint", "choice", "shuffle", "seed", "sample", "uniform"}


def _sources() -> list[Path]:
    files = sorted(RULES.rglob("*.py"))
    assert files, "no rules modules found"
    return files


def test_rules_core_imports_nothing_impure() -> None:
    bad = []
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN_MODULES:
                    bad.append(f"{path.name}:{node.lineno} imports {name}")
    assert not bad, "table/rules must stay pure:\n" + "\n".join(bad)


def test_rules_core_touches_no_files_clock_or_global_random() -> None:
    bad = []
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Name) and f.id in FORBIDDEN_CALLS:
                    bad.append(f"{path.name}:{node.lineno} calls {f.id}()")
                if (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                        and f.value.id == "random" and f.attr in FORBIDDEN_RANDOM):
                    bad.append(f"{path.name}:{node.lineno} uses global random.{f.attr}()")
    assert not bad, "table/rules must stay pure:\n" + "\n".join(bad)


def test_the_purity_check_catches_an_impure_module(tmp_path: Path) -> None:
    """The checks above can fail: run them over a deliberately impure source."""
    src = "import cv2\nfrom time import monotonic\nopen('x')\nrandom.shuffle([])\n"
    tree = ast.parse(src)
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert {getattr(n, "module", None) or n.names[0].name for n in imports} == {"cv2", "time"}
    assert any(isinstance(c.func, ast.Name) and c.func.id == "open" for c in calls)
    assert any(isinstance(c.func, ast.Attribute) and c.func.attr == "shuffle" for c in calls)
