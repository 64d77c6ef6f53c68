"""deploy/install-pi.sh and deploy/flash-board.sh: valid bash, and their dry runs do what the
Pi needs (this machine is not a Pi, so the dry run is what can be run here)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pip_guard import FROM_DEBIAN, distribution_name

from firmware_bridge.commands import BOARD_PACKAGE, FIRMWARE_MODULES, flash_commands

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))
UNIT = (DEPLOY / "pinochle-table.service").read_text(encoding="utf-8")


def on_a_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.exists() and "raspberry pi" in model.read_text(errors="replace").lower()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False)


def commands(output: str) -> list[list[str]]:
    """The commands a dry run printed ("+ cmd args", quoted by bash's printf %q), split by
    bash itself: a NUL after each argument, and a \\1 argument after each command."""
    lines = [line[2:] for line in output.splitlines() if line.startswith("+ ")]
    script = "".join(f"set -- {line}; printf '%s\\0' \"$@\"; printf '\\1\\0'\n"
                     for line in lines)
    words = subprocess.run(["bash", "-c", script], capture_output=True, check=True,
                           timeout=30).stdout.decode().split("\0")
    split: list[list[str]] = [[]]
    for word in words[:-1]:
        if word == "\1":
            split.append([])
        else:
            split[-1].append(word)
    return split[:-1]


@pytest.fixture(scope="module")
def install_dry_run() -> list[list[str]]:
    result = run("bash", str(DEPLOY / "install-pi.sh"), "--dry-run")
    assert result.returncode == 0, result.stderr
    return commands(result.stdout)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_script_parses(script: Path) -> None:
    result = run("bash", "-n", str(script))
    assert result.returncode == 0, result.stderr
    assert script.read_text().startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in script.read_text()


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_finds_nothing() -> None:
    result = run("shellcheck", *map(str, SCRIPTS))
    assert result.returncode == 0, result.stdout


def test_the_dry_run_installs_debians_packages(install_dry_run: list[list[str]]) -> None:
    apt = [c for c in install_dry_run if "apt-get" in c and "install" in c]
    # on this machine picamera2 and lgpio are never installed, so the install steps are shown
    assert len(apt) == 2
    for package in ("python3-opencv", "python3-numpy", "python3-pil", "python3-lgpio"):
        assert package in apt[0]
    # picamera2 alone, without the Qt and OpenGL packages it recommends
    assert apt[1][-2:] == ["--no-install-recommends", "python3-picamera2"]
    assert "python3-picamera2" not in apt[0]


def test_phones_find_the_table_and_a_card_is_printed(install_dry_run: list[list[str]]) -> None:
    assert ["systemctl", "enable", "--now", "avahi-daemon"] in install_dry_run
    card = [c for c in install_dry_run if "print-card" in c]
    assert card == [["runuser", "-u", "pinochle", "--", "env",
                     "PINOCHLE_CONFIG=/var/lib/pinochle-table",
                     "/opt/pinochle-table/.venv/bin/pinochle-table", "print-card", "--out",
                     "/var/lib/pinochle-table/table-card.pdf"]]


def test_the_venv_sees_debians_packages(install_dry_run: list[list[str]],
                                        tmp_path: Path) -> None:
    venv = [c for c in install_dry_run if c[1:3] == ["-m", "venv"]]
    assert venv == [["python3", "-m", "venv", "--system-site-packages",
                     "/opt/pinochle-table/.venv"]]
    checks = [c for c in install_dry_run if c[0] == "/opt/pinochle-table/.venv/bin/python"
              and c[1] == "-c"]
    assert len(checks) == 1
    # Run that check here, where numpy and OpenCV come from pip (picamera2 and lgpio stubbed):
    # it must refuse the venv.
    for stub in ("picamera2", "lgpio"):
        (tmp_path / f"{stub}.py").write_text("")
    result = subprocess.run([sys.executable, "-c", checks[0][2]], capture_output=True,
                            text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)},
                            check=False)
    assert result.returncode == 1
    assert "numpy comes from" in result.stderr and "not from Debian" in result.stderr


def test_pip_never_installs_numpy_or_opencv(install_dry_run: list[list[str]]) -> None:
    pip = [c for c in install_dry_run if "pip" in c and "install" in c]
    assert len(pip) == 3, pip  # the dry run with a report, the dependencies, the project
    report, deps, project = pip
    assert "--dry-run" in report and "--report" in report
    assert [a for a in report if not a.startswith("-")][-6:] == \
        [a for a in deps if not a.startswith("-")][-6:]  # the very same requirements
    assert project[-3:] == ["--no-deps", "--editable", "/opt/pinochle-table"]
    for command in pip:
        for arg in command:
            if arg.startswith("-") or "/" in arg or arg in ("install", "pip"):
                continue
            assert not FROM_DEBIAN.match(distribution_name(arg)), command
    guard = install_dry_run[install_dry_run.index(report) + 1]
    assert guard[1:3] == [str(DEPLOY / "pip_guard.py"), "check"]  # checked before installing
    assert install_dry_run.index(guard) < install_dry_run.index(deps)


def test_the_service_user_and_its_groups(install_dry_run: list[list[str]]) -> None:
    usermod = [c for c in install_dry_run if c[0] == "usermod"]
    assert usermod == [["usermod", "--append", "--groups", "gpio,video,dialout", "pinochle"]]
    # dry runs read the machine but change nothing: the user is only added if missing
    useradd = [c for c in install_dry_run if c[0] == "useradd"]
    has_user = run("id", "pinochle").returncode == 0
    assert len(useradd) == (0 if has_user else 1)
    if useradd:
        assert "--system" in useradd[0] and useradd[0][-1] == "pinochle"


def test_the_unit_and_rule_are_installed(install_dry_run: list[list[str]]) -> None:
    installs = {c[-1]: c[-2] for c in install_dry_run if c[0] == "install"}
    assert installs == {
        "/etc/systemd/system/pinochle-table.service": str(DEPLOY / "pinochle-table.service"),
        "/etc/udev/rules.d/99-pinochle-board.rules": str(DEPLOY / "99-pinochle-board.rules")}
    steps = [" ".join(c) for c in install_dry_run]
    for step in ("systemctl daemon-reload", "udevadm control --reload-rules",
                 "systemctl try-restart pinochle-table.service"):
        assert step in steps


def test_the_code_goes_where_the_unit_runs_it(install_dry_run: list[list[str]]) -> None:
    rsync = [c for c in install_dry_run if c[0] == "rsync"]
    assert rsync and rsync[0][-1] == "/opt/pinochle-table/"
    assert "--exclude=/.venv" in rsync[0]  # the venv survives an update
    assert "--exclude=/table/rules/*.so" in rsync[0]  # no build from another machine
    exec_start = re.search(r"^ExecStart=(\S+)", UNIT, re.M)
    assert exec_start and exec_start.group(1) == "/opt/pinochle-table/.venv/bin/pinochle-table"


def test_off_a_pi_it_refuses_to_install() -> None:
    if on_a_pi():
        pytest.skip("this is a Raspberry Pi")
    result = run("bash", str(DEPLOY / "install-pi.sh"))
    assert result.returncode == 1
    assert "use --dry-run" in result.stderr or "run it as root" in result.stderr
    assert not commands(result.stdout)


def test_a_wrong_option_is_named() -> None:
    for script in ("install-pi.sh", "flash-board.sh"):
        result = run("bash", str(DEPLOY / script), "--dryrun")
        assert result.returncode == 2 and "--dryrun" in result.stderr


def test_flashing_puts_each_file_where_board_flash_does() -> None:
    result = run("bash", str(DEPLOY / "flash-board.sh"), "--port", "/dev/ttyACM7", "--dry-run")
    assert result.returncode == 0, result.stderr
    calls = commands(result.stdout)
    # `resume`: no soft reset, which would stop the timer feeding the board's watchdog
    assert all(c[1:4] == ["connect", "/dev/ttyACM7", "resume"] for c in calls)
    calls = [c[:3] + c[4:] for c in calls]
    copies = {(Path(c[4]).name, c[5]) for c in calls if c[3] == "cp"}
    # the same places as `pinochle-table board-flash` (firmware_bridge's own flashing)
    expected = {(name, f":{BOARD_PACKAGE}/{name}") for name in FIRMWARE_MODULES}
    expected.add(("main.py", ":main.py"))
    assert copies == expected
    assert calls[-1][3:] == ["reset"]  # main.py only runs after a hard reset
    make_dir = flash_commands(None)[0][-1]
    assert calls[0][3] == "exec" and f"os.mkdir('{BOARD_PACKAGE}')" in make_dir \
        and f"os.mkdir('{BOARD_PACKAGE}')" in calls[0][4]


def test_flashing_finds_the_board_by_its_udev_name() -> None:
    result = run("bash", str(DEPLOY / "flash-board.sh"), "--dry-run")
    assert result.returncode == 0, result.stderr
    port = commands(result.stdout)[0][2]
    if not Path("/dev/pinochle-board").exists():
        assert port == "/dev/pinochle-board"
    rule = (DEPLOY / "99-pinochle-board.rules").read_text()
    assert 'SYMLINK+="pinochle-board"' in rule
