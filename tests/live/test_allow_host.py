"""`pinochle-table run --allow-host NAME` and table.toml's `allow_hosts`: the page answers to
the names given, and to no other name (DNS rebinding)."""

from __future__ import annotations

import http.client
import io
from pathlib import Path
from typing import Any

import pytest

from table.cli import main
from table.live.hardware import detect
from table.live.runner import RunningTable, RunOptions
from table.settings import SettingsError, check_host_name, load_settings


def status_for(url: str, host: str) -> int:
    """GET / with this Host header, as a browser that reached the table by that name sends."""
    address = url.split("//", 1)[1].rstrip("/")
    connection = http.client.HTTPConnection(address, timeout=30)
    try:
        connection.request("GET", "/api/state", headers={"Host": host})
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_running_table_answers_to_the_allowed_names_only(tmp_path: Path) -> None:
    options = RunOptions(db=tmp_path / "t.sqlite3", port=0, host="127.0.0.1", pin="2468",
                         headless=True, allow_hosts=("pinochle-den.local",))
    table = RunningTable(options, detect("off", "off", "off"), out=io.StringIO()).start()
    try:
        assert table.url is not None
        assert status_for(table.url, "pinochle-den.local:8080") == 200
        assert status_for(table.url, "PINOCHLE-DEN.LOCAL") == 200
        assert status_for(table.url, "127.0.0.1") == 200
        assert status_for(table.url, "evil.example:8080") == 421
        assert status_for(table.url, "pinochle-den.local.evil.example") == 421
    finally:
        table.stop()


@pytest.mark.parametrize(("given", "kept"), [
    ("pinochle.local", "pinochle.local"), (" Pinochle-Den.Local. ", "pinochle-den.local"),
    ("192.168.1.20", "192.168.1.20"), ("fe80::1", "fe80::1"), ("[::1]", "::1"),
    ("den", "den"),
])
def test_good_host_names(given: str, kept: str) -> None:
    assert check_host_name(given) == kept


@pytest.mark.parametrize("bad", ["", "http://pinochle.local", "pinochle.local:8080",
                                 "pinochle.local/", "*.local", "pi nochle", "-pi.local",
                                 "pi..local", "999.1.1.1", "a" * 64 + ".local", "pinochle_den"])
def test_bad_host_names_say_what_a_host_name_is(bad: str) -> None:
    with pytest.raises(ValueError, match=r"not a host name: give a name like pinochle\.local"):
        check_host_name(bad)


def test_table_toml_allow_hosts(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('allow_hosts = ["Den.local", "10.0.0.7"]\n')
    assert load_settings(path).allow_hosts == ("den.local", "10.0.0.7")
    path.write_text('allow_hosts = "den.local"\n')
    with pytest.raises(SettingsError, match="allow_hosts is a list of host names"):
        load_settings(path)
    path.write_text('allow_hosts = ["den.local:8080"]\n')
    with pytest.raises(SettingsError, match=r"table.toml: allow_hosts: 'den.local:8080' is not"):
        load_settings(path)


def test_run_adds_allow_host_to_the_settings_names(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def run(options: Any, hardware: Any) -> int:
        seen.append(options)
        return 0

    monkeypatch.setattr("table.live.runner.run", run)
    config = tmp_path / "table.toml"
    config.write_text('allow_hosts = ["den.local"]\n')
    assert main(["run", "--config", str(config), "--pin", "2468", "--camera", "off", "--gpio",
                 "off", "--serial", "off", "--allow-host", "Pinochle.local", "--allow-host",
                 "10.0.0.7", "--allow-host", "den.local"]) == 0
    assert seen[0].allow_hosts == ("den.local", "pinochle.local", "10.0.0.7")


def test_run_refuses_a_bad_allow_host_before_starting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("table.live.runner.run", lambda options, hardware: pytest.fail("ran"))
    assert main(["run", "--config", str(tmp_path / "none.toml"), "--pin", "2468",
                 "--allow-host", "http://pinochle.local:8080/"]) == 2
    err = capsys.readouterr().err
    assert "--allow-host: 'http://pinochle.local:8080/' is not a host name" in err
