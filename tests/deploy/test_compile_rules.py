"""deploy/compile_rules.py: the rules core compiled with mypyc plays exactly the games the pure
Python source plays, and a build older than its source is caught."""

from __future__ import annotations

import hashlib
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import compile_rules
import pytest

ROOT = Path(__file__).resolve().parents[2]

# Seeded games of every preset, known and hidden hands: a digest of every event and position.
GAMES = """
import hashlib, random, sys
from table.rules import PRESET_NAMES, Phase, SimTable, new_game, preset
h = hashlib.sha256()
for name in PRESET_NAMES:
    for known in (True, False):
        rules = preset(name)
        g = new_game(rules)
        sim = SimTable(rules, random.Random(len(name)), known=known)
        while g.phase is not Phase.GAME_OVER and g.hand_number < 4:
            e = sim.next_event(g)
            after = g.apply(e)
            sim.observe(e, g)
            g = after
            h.update(repr(e).encode())
            h.update(g.position().encode())
            h.update(repr((g.legal_plays, g.reneges, g.result, g.scores)).encode())
print(h.hexdigest())
"""


def play(pythonpath: Path) -> str:
    done = subprocess.run([sys.executable, "-c", GAMES], capture_output=True, text=True,
                          env={"PYTHONPATH": str(pythonpath)}, check=True, timeout=600)
    return done.stdout.strip()


def test_the_build_in_the_tree_is_current() -> None:
    if not compile_rules.built():
        pytest.skip(f"the rules core is pure Python here: {compile_rules.can_compile()}")
    assert compile_rules.up_to_date(), \
        "table/rules was edited after it was compiled: run deploy/compile_rules.py"
    for name in compile_rules.MODULES:
        module = importlib.import_module(f"table.rules.{name}")
        assert module.__file__ is not None and not module.__file__.endswith(".py"), name


def test_compiled_and_pure_python_play_the_same_games(tmp_path: Path) -> None:
    if not compile_rules.built():
        pytest.skip("the rules core is pure Python here")
    pure = tmp_path / "pure"
    shutil.copytree(ROOT / "table", pure / "table",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "_native.json"))
    assert not list((pure / "table" / "rules").glob("*.so"))
    assert play(ROOT) == play(pure)


def test_an_edited_source_makes_the_build_stale(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    for name in compile_rules.MODULES:
        shutil.copy(ROOT / "table" / "rules" / f"{name}.py", rules)
        (rules / f"{name}{compile_rules.EXT_SUFFIX}").write_bytes(b"")
    (rules / f"_native__mypyc{compile_rules.EXT_SUFFIX}").write_bytes(b"")
    monkeypatch.setattr(compile_rules, "RULES", rules)
    monkeypatch.setattr(compile_rules, "MANIFEST", rules / "_native.json")
    assert not compile_rules.up_to_date()  # no manifest yet
    compile_rules.write_manifest()
    assert compile_rules.up_to_date()
    game = rules / "game.py"
    game.write_text(game.read_text() + "\n# an edit\n")
    assert not compile_rules.up_to_date()
    assert compile_rules.sources()["game"] == hashlib.sha256(game.read_bytes()).hexdigest()
    compile_rules.clean()
    assert not compile_rules.built() and not (rules / "_native.json").exists()
    assert game.exists()  # the source stays
