"""deploy/pip_guard.py: pip installs only pure-Python packages into the Pi's venv, never numpy,
OpenCV, Pillow or picamera2 (Debian's, which a pip copy would shadow and break)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from pip_guard import FROM_DEBIAN, distribution_name, forbidden_in_report, main, pip_requirements

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
GUARD = ROOT / "deploy" / "pip_guard.py"


def report(*names: str) -> dict[str, object]:
    return {"version": "1", "install": [{"metadata": {"name": n, "version": "1.0"}}
                                        for n in names]}


def test_the_requirements_leave_debians_packages_out() -> None:
    requirements = pip_requirements(PYPROJECT, ["mpremote"])
    names = [distribution_name(r) for r in requirements]
    assert "numpy" not in names and "pillow" not in names
    assert names[-1] == "mpremote"
    # everything else the project needs is there, with its version
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert requirements[:-1] == [d for d in declared
                                 if distribution_name(d) not in ("numpy", "pillow")]


@pytest.mark.parametrize("name", ["numpy", "Pillow", "opencv-python", "opencv_python_headless",
                                  "opencv-contrib-python", "picamera2"])
def test_debians_packages_are_caught_in_a_report(name: str) -> None:
    assert forbidden_in_report(report("Flask", name, "colorzero")) == [distribution_name(name)]


def test_a_safe_report_passes_and_a_bad_one_fails(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(report("Flask", "Werkzeug", "mpremote")))
    bad.write_text(json.dumps(report("Flask", "numpy")))
    assert main(["check", str(good)]) == 0
    assert "Flask, Werkzeug, mpremote" in capsys.readouterr().out
    assert main(["check", str(bad)]) == 1
    assert "numpy" in capsys.readouterr().err
    assert main(["nonsense"]) == 2
    with pytest.raises(ValueError, match="not a pip install report"):
        forbidden_in_report({"version": "1"})


def test_the_project_dependencies_pull_nothing_from_debian_offline() -> None:
    """Walk the requirements through the metadata installed here (markers as on this Python,
    extras not taken): none of them reaches numpy, Pillow or OpenCV."""
    seen: set[str] = set()
    todo = [Requirement(r) for r in pip_requirements(PYPROJECT)]
    while todo:
        requirement = todo.pop()
        name = distribution_name(requirement.name)
        assert not FROM_DEBIAN.match(name), f"{name} is pulled in by the pip requirements"
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(name) or []:
            dependency = Requirement(text)
            marker = dependency.marker
            if marker is None or marker.evaluate():  # this Python, no extra
                todo.append(dependency)
    assert {"flask", "werkzeug", "gpiozero", "colorzero", "pyserial", "segno"} <= seen


def test_pips_own_dry_run_would_install_nothing_from_debian(tmp_path: Path) -> None:
    """What install-pi.sh runs before installing, resolved from the package index as if
    nothing were installed (skipped when the index cannot be reached)."""
    requirements = pip_requirements(PYPROJECT, ["mpremote"])
    out = tmp_path / "report.json"
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "--dry-run",
             "--ignore-installed", "--quiet", "--report", str(out), *requirements],
            capture_output=True, text=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        pytest.skip("the package index is too slow to reach")
    if result.returncode != 0:
        pytest.skip(f"pip could not resolve from the index: {result.stderr.strip()[-200:]}")
    checked = subprocess.run([sys.executable, str(GUARD), "check", str(out)],
                             capture_output=True, text=True, timeout=30, check=False)
    assert checked.returncode == 0, checked.stderr
    installed = {distribution_name(n["metadata"]["name"]) for n in json.loads(out.read_text())[
        "install"]}
    assert {"flask", "gpiozero", "pyserial", "segno", "mpremote"} <= installed
