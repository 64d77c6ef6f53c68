"""The systemd unit and the udev rule: valid, and in agreement with the code they run."""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from firmware_bridge.config import LAYOUT_FILES, PICO_USB_ID, default_wiring
from table.cli import build_parser
from table.journal import default_path
from table.settings import settings_path

ROOT = Path(__file__).resolve().parents[2]
UNIT_FILE = ROOT / "deploy" / "pinochle-table.service"
RULE_FILE = ROOT / "deploy" / "99-pinochle-board.rules"


def unit() -> dict[str, dict[str, list[str]]]:
    """The unit file as {section: {key: [values in order]}}."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in UNIT_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        assert current is not None, f"{line!r} is outside any section"
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


def environment() -> dict[str, str]:
    return dict(v.split("=", 1) for v in unit()["Service"]["Environment"])


def test_the_unit_has_what_the_table_needs() -> None:
    service = unit()["Service"]
    assert service["User"] == ["pinochle"]
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "video", "dialout"}
    assert service["Restart"] == ["on-failure"] and int(service["RestartSec"][0]) > 0
    assert service["ExecStart"] == ["/opt/pinochle-table/.venv/bin/pinochle-table run"]
    assert unit()["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_journal_and_lgpio_live_in_the_state_directory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    service = unit()["Service"]
    state = Path("/var/lib") / service["StateDirectory"][0]
    # lgpio makes its notification pipes in the working directory: it must be writable
    assert Path(service["WorkingDirectory"][0]) == state
    assert Path(environment()["LG_WD"]) == state
    journal = Path(environment()["PINOCHLE_DB"])
    assert journal.parent == state
    monkeypatch.setenv("PINOCHLE_DB", str(journal))  # the variable the journal really reads
    assert default_path() == journal
    # table.toml, the calibration and the deck profile: the settings directory
    assert Path(environment()["PINOCHLE_CONFIG"]) == state
    monkeypatch.setenv("PINOCHLE_CONFIG", environment()["PINOCHLE_CONFIG"])
    assert settings_path() == state / "table.toml"


def test_the_command_the_unit_runs_exists() -> None:
    subcommand = unit()["Service"]["ExecStart"][0].split()[1]
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if subcommand not in actions[0].choices:
        pytest.skip(f"`pinochle-table {subcommand}` is not written yet (issue 8's integration)")
    assert subcommand == "run"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    # The venv exists only on the Pi: point ExecStart at a program that is here, keep the rest.
    text = UNIT_FILE.read_text(encoding="utf-8")
    copy = tmp_path / UNIT_FILE.name
    copy.write_text(re.sub(r"^ExecStart=\S+", "ExecStart=/bin/true", text, flags=re.M))
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=30, check=False)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if UNIT_FILE.name in line]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr


def rule() -> dict[str, str]:
    """The udev rule's one line as {KEY: value} (KEY with its operator, like 'SYMLINK+=')."""
    lines = [line for line in RULE_FILE.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(lines) == 1
    pairs = [p.strip() for p in lines[0].split(",")]
    parsed = {}
    for pair in pairs:
        match = re.fullmatch(r'([A-Z_]+(?:\{[A-Za-z_]+\})?)(==|!=|\+=|:=|=)"([^"]*)"', pair)
        assert match, f"not a udev key=value: {pair!r}"
        parsed[match.group(1) + match.group(2)] = match.group(3)
    return parsed


def test_the_udev_rule_matches_the_board_firmware_bridge_looks_for() -> None:
    keys = rule()
    assert keys["SUBSYSTEM=="] == "tty"
    usb_id = f"{keys['ATTRS{idVendor}==']}:{keys['ATTRS{idProduct}==']}"
    assert usb_id == PICO_USB_ID == "2e8a:0005"
    for seats in LAYOUT_FILES:
        assert default_wiring(seats).board.usb_id == usb_id


def test_the_udev_rule_names_the_board_and_lets_the_service_open_it() -> None:
    keys = rule()
    assert keys["SYMLINK+="] == "pinochle-board"
    assert keys["GROUP="] == "dialout" and keys["MODE="] == "0660"
    assert "dialout" in unit()["Service"]["SupplementaryGroups"][0].split()


# -- the service started as systemd starts it, joined from a phone ---------------------------------

class Service:
    """`pinochle-table run` with the unit's command line, working directory and environment,
    the service user's paths (its state directory is its home) moved into `root`."""

    def __init__(self, root: Path) -> None:
        service = unit()["Service"]
        self.state = Path("/var/lib") / service["StateDirectory"][0]
        self.root = root
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PINOCHLE_", "XDG_"))}
        env.update({k: self.moved(v) for k, v in environment().items()})
        env["HOME"] = str(self.moved(str(self.state)))
        self.env = env
        program, *args = service["ExecStart"][0].split()
        assert program == "/opt/pinochle-table/.venv/bin/pinochle-table"
        self.command = [str(Path(sys.executable).parent / "pinochle-table"), *args]
        self.cwd = self.moved(service["WorkingDirectory"][0])
        Path(self.cwd).mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str] = queue.Queue()

    def moved(self, value: str) -> str:
        return value.replace(str(self.state), str(self.root / "state"))

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, cwd=self.cwd, env=self.env, text=True,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        out = self.process.stdout
        assert out is not None
        threading.Thread(target=lambda: [self.lines.put(line) for line in out],
                         daemon=True).start()

    def wait_for(self, pattern: str, timeout: float = 120) -> re.Match[str]:
        seen = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                assert self.process is not None and self.process.poll() is None, seen
                continue
            seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found
        raise AssertionError(f"no {pattern!r} in {seen}")

    def stop(self) -> None:
        """SIGTERM, as `systemctl stop` sends."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def join(url: str, pin: str) -> int:
    """A phone enters the PIN on the page: the page's own request, over HTTP."""
    request = urllib.request.Request(url + "api/pin", data=b"{}", method="POST",
                                     headers={"X-Table-PIN": pin,
                                              "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.slow
def test_the_service_boots_from_table_toml_and_a_phone_joins_with_its_pin(
        tmp_path: Path) -> None:
    from table.settings import load_settings

    service = Service(tmp_path)
    settings_file = Path(service.env["PINOCHLE_CONFIG"]) / "table.toml"
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket() as probe:  # a free port for the page
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings_file.write_text(f'preset = "bison"\nseats = ["Ann", "Bob", "Cleo"]\nport = {port}\n')
    pins = []
    for boot in range(2):  # the PIN made on the first start is the one after a restart
        service.start()
        try:
            printed = service.wait_for(r"table PIN: (\d+)").group(1)
            pin = load_settings(settings_file).pin
            assert pin == printed
            pins.append(pin)
            url = f"http://127.0.0.1:{port}/"
            assert join(url, pin) == 200
            wrong = str((int(pin) + 1) % 10 ** len(pin)).zfill(len(pin))
            assert join(url, wrong) == 403  # refused: a wrong PIN
        finally:
            service.stop()
        # systemd counts an exit on SIGTERM as clean too (it may come before the handler is set)
        assert service.process is not None and service.process.returncode in (0, -15), boot
    assert pins[0] == pins[1]
    assert 'preset = "bison"' in settings_file.read_text()  # the file kept what it had
    assert (tmp_path / "state" / "table.sqlite3").exists()  # the journal where the unit says
