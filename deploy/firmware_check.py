"""The board's program checked as the Pico will run it (`deploy/table.sh firmware-check`, CI):

1. every file in firmware_bridge/firmware compiled by mpy-cross for the Pico's core (armv6m);
2. the compiled logic and main.py run by MicroPython's Unix port with a stand-in `machine`
   (tests/firmware_bridge/upy/scenarios.py): handshake, TAP/HOLD, lights, buzzer, noise, the
   watchdog, and the clean restart after an error.

    python deploy/firmware_check.py [BOARD_DIR]    BOARD_DIR: keep the compiled files there
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
STAND_IN = ROOT / "tests" / "firmware_bridge" / "upy"
BOARD_PACKAGE = "pinochle_fw"   # the logic's folder on the board (see flash-board.sh)
# The RP2040's Cortex-M0+. Plain bytecode is the same for every core (its .mpy header names no
# architecture); the flag matters for @micropython.native and viper code, should any come.
ARCH = "armv6m"


def tool(name: str) -> str:
    """A program of the venv running this script (mpy-cross, micropython), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed: ./deploy/table.sh setup installs it "
                                "(the dev extra of pyproject.toml)")
    return found


def compile_firmware(board: Path) -> list[Path]:
    """The board's files as the Pico holds them, in `board`: main.py, and pinochle_fw/ with
    each logic module compiled to .mpy for armv6m. main.py is compiled too (into a scratch
    file) so that syntax MicroPython refuses is caught there as well. Raises CalledProcessError
    with mpy-cross's message for a file it cannot compile."""
    package = board / BOARD_PACKAGE
    package.mkdir(parents=True, exist_ok=True)
    compiled = []
    for source in sorted(FIRMWARE.glob("*.py")):
        target = (board / "main.mpy") if source.name == "main.py" else \
            package / (source.stem + ".mpy")
        subprocess.run([tool("mpy-cross"), f"-march={ARCH}", "-o", str(target), str(source)],
                       check=True, capture_output=True, text=True)
        compiled.append(target)
    shutil.copy(FIRMWARE / "main.py", board / "main.py")
    (board / "main.mpy").unlink()  # the board runs main.py itself, from source
    return compiled


def run_scenarios(board: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """scenarios.py on MicroPython, in `board` (where main.py writes its crash log)."""
    return subprocess.run([tool("micropython"), str(STAND_IN / "scenarios.py"), str(board)],
                          cwd=board, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)


def report(result: subprocess.CompletedProcess[str]) -> str:
    """The scenarios' lines, without the frames main.py wrote to its USB line (stdout)."""
    lines = (result.stdout + result.stderr).splitlines()
    return "\n".join(line for line in lines if not line.startswith("P1 "))


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="pinochle-board-") as scratch:
        board = Path(argv[0]) if argv else Path(scratch)
        try:
            compiled = compile_firmware(board)
        except subprocess.CalledProcessError as error:
            print(f"mpy-cross refused {error.args[1][-1]}:\n{error.stderr}", file=sys.stderr)
            return 1
        sizes = ", ".join(f"{p.stem} {p.stat().st_size} B" for p in compiled if p.exists())
        print(f"mpy-cross -march={ARCH}: all {len(compiled)} files compiled ({sizes}; main.py "
              "stays source)")
        result = run_scenarios(board)
        print(report(result))
        return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
