"""What pip may install into the Pi's venv, and a check of pip's own dry-run report.

On the Pi, numpy, OpenCV, Pillow and picamera2 come from Debian; a pip copy of numpy or OpenCV
in the venv shadows Debian's and breaks picamera2. Used by deploy/install-pi.sh (standard
library only: it runs on the system Python before the venv exists):

    python3 deploy/pip_guard.py requirements pyproject.toml [EXTRA ...]   one per line
    python3 deploy/pip_guard.py check REPORT.json                         exit 1 if unsafe
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

# Distribution names (normalised) that must come from apt, never from pip.
FROM_DEBIAN = re.compile(r"^(numpy|pillow|opencv(-contrib)?-python(-headless)?|picamera2)$")


def distribution_name(requirement: str) -> str:
    """The normalised name at the start of a requirement ("Flask>=3.0" -> "flask")."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def pip_requirements(pyproject: Path, extra: Iterable[str] = ()) -> list[str]:
    """The project's dependencies less those Debian provides, then `extra`."""
    with pyproject.open("rb") as f:
        dependencies = tomllib.load(f)["project"]["dependencies"]
    return [r for r in [*dependencies, *extra] if not FROM_DEBIAN.match(distribution_name(r))]


def installed_by_report(report: dict[str, Any]) -> list[str]:
    """The distributions a pip `install --dry-run --report` would install."""
    install = report.get("install")
    if not isinstance(install, list):
        raise ValueError("not a pip install report: it has no 'install' list")
    return [str(item["metadata"]["name"]) for item in install]


def forbidden_in_report(report: dict[str, Any]) -> list[str]:
    """The distributions the report would install that must come from Debian."""
    names = [distribution_name(name) for name in installed_by_report(report)]
    return [name for name in names if FROM_DEBIAN.match(name)]


def main(argv: Sequence[str]) -> int:
    if len(argv) >= 2 and argv[0] == "requirements":
        print("\n".join(pip_requirements(Path(argv[1]), argv[2:])))
        return 0
    if len(argv) == 2 and argv[0] == "check":
        report = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
        bad = forbidden_in_report(report)
        if bad:
            print(f"pip would install {', '.join(bad)} into the venv, which breaks picamera2: "
                  "install it with apt (python3-numpy, python3-opencv, python3-pil) instead",
                  file=sys.stderr)
            return 1
        names = installed_by_report(report)
        print("pip will install: " + (", ".join(names) or "nothing new"))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
