"""Compile the rules core's hot modules with mypyc, in place, where a C compiler is at hand.

The compiled modules are the same source, typed and checked by mypy: Python imports an
extension module in preference to the .py beside it, and the .py files stay the fallback
(`--clean` removes the build). A manifest records the hashes of the sources compiled, so that
this script rebuilds after an edit and tests/deploy/test_compile_rules.py catches a stale build.

    python deploy/compile_rules.py [--clean]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "table" / "rules"
# the modules a simulated hand spends its time in (bench/bench_game.py); the rest stay Python
MODULES = ("game", "auction", "standing", "hand", "values", "tricks", "players", "meld",
           "reneges", "scoring", "seats", "cards", "phase")
GROUP = "table.rules._native"  # mypyc's shared library, table/rules/_native__mypyc.*.so
MANIFEST = RULES / "_native.json"
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX")


def sources() -> dict[str, str]:
    """The sha256 of each compiled module's source."""
    return {m: hashlib.sha256((RULES / f"{m}.py").read_bytes()).hexdigest() for m in MODULES}


def built() -> list[Path]:
    """The extension modules in table/rules (all of them: a module left out of MODULES since
    its last build would still shadow its source)."""
    return list(RULES.glob(f"*{EXT_SUFFIX}"))


def clean() -> None:
    for p in built():
        p.unlink()
    MANIFEST.unlink(missing_ok=True)


def up_to_date() -> bool:
    if not MANIFEST.exists():
        return False
    manifest = json.loads(MANIFEST.read_text())
    names = {p.name.split(".")[0] for p in built()}
    return (manifest.get("sources") == sources() and manifest.get("python") == sys.version
            and names == {*MODULES, "_native__mypyc"})


def can_compile() -> str | None:
    """Why this machine cannot build C extensions, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return "no C compiler"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (python3-dev)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    return None


def compile_rules() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    paths = [str(Path("table") / "rules" / f"{m}.py") for m in MODULES]
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        # setuptools reads pyproject.toml in the working directory and warns about its tables
        warnings.simplefilter("ignore")
        os.chdir(ROOT)
        extensions = mypycify(paths, target_dir=tmp, group_name=GROUP)
        setup(name="table-rules-native", ext_modules=extensions, script_name="compile_rules",
              script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp])
    write_manifest()


def write_manifest() -> None:
    MANIFEST.write_text(json.dumps({"sources": sources(), "python": sys.version}, indent=1)
                        + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the build: pure Python")
    args = parser.parse_args()
    if args.clean:
        clean()
        print("rules core: pure Python")
        return 0
    if up_to_date():
        return 0
    why = can_compile()
    if why is not None:
        clean()
        print(f"rules core left in pure Python: {why}", file=sys.stderr)
        return 0
    clean()
    print("compiling the rules core with mypyc (about a minute)...", file=sys.stderr)
    compile_rules()
    return 0


if __name__ == "__main__":
    sys.exit(main())
