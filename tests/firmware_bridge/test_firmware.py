"""The board's program stays MicroPython-friendly: logic without `machine`, a thin main.py."""

from __future__ import annotations

import ast
import contextlib
import os
from pathlib import Path

import pytest

from firmware_bridge.commands import FIRMWARE, FIRMWARE_MODULES
from firmware_bridge.firmware.board import LIGHTS, Board

LOGIC = [FIRMWARE / name for name in FIRMWARE_MODULES]
# What the board's MicroPython offers; anything else would fail there.
BOARD_MODULES = {"machine", "select", "sys", "time", "os"}


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(module, relative level, inside a try) of every import in `path`."""
    tree = ast.parse(path.read_text(), str(path))
    guarded = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try)
               for s in t.body for n in ast.walk(s)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, 0, id(node) in guarded) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level, id(node) in guarded))
    return out


@pytest.mark.parametrize("path", LOGIC, ids=lambda p: p.name)
def test_logic_modules_import_only_each_other(path: Path) -> None:
    for module, level, guarded in imports(path):
        assert module != "machine"
        assert module != "__future__", "MicroPython has no __future__ module"
        # relative imports of the sibling modules, or a typing-only import MicroPython skips
        assert level == 1 or (guarded and module == "collections.abc"), (path.name, module)


def test_the_catch_for_a_bad_import_works() -> None:
    bad = FIRMWARE.parent / "panel.py"  # a Pi-side module: imports logging, threading, ...
    assert any(level == 0 and not guarded for _, level, guarded in imports(bad))


def test_main_binds_every_button_light_and_the_buzzer_once() -> None:
    source = (FIRMWARE / "main.py").read_text()
    tree = ast.parse(source)
    assert {m.split(".")[0] for m, level, _ in imports(FIRMWARE / "main.py") if level == 0} \
        <= BOARD_MODULES | {"pinochle_fw"}
    values = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError):  # not a literal: not a pin table
                values[node.targets[0].id] = ast.literal_eval(node.value)
    buttons, lights, buzzer = values["BUTTON_PINS"], values["LIGHT_PINS"], values["BUZZER_PIN"]
    gpios = [g for g, _, _ in buttons] + list(lights) + [buzzer]
    assert len(gpios) == len(set(gpios)) and all(0 <= g <= 28 for g in gpios)
    assert len(lights) == LIGHTS
    seats = {seat for _, seat, _ in buttons}
    assert seats == {"0", "1", "2", "3", "T"}
    # the scan order main.py gives is one the board's logic accepts
    board = Board([(seat, name) for _, seat, name in buttons], lambda data: None, 0, "ab",
                  os.urandom)
    board.scan([False] * len(buttons), 0)
