"""What the table is plugged into: the camera, the GPIO pins and the serial board.

Each is optional. Detection says once, in one sentence, what is missing and what takes its job
(the page). Flags override it: `--camera pi|usb:N|file:PATH|sim`, `--gpio real|mock|off`,
`--serial PATH|sim|off`. Off a Raspberry Pi the defaults are the simulation: a simulated
camera, mock pins and a simulated board.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from table.cli_common import CommandError

MODEL_FILE = Path("/proc/device-tree/model")


@dataclass(frozen=True)
class Hardware:
    """What the table will use. `camera` is an `open_source` name ("pi", "usb:0",
    "file:PATH", "sim") or None; `gpio` is "real", "mock" or None, with the gpiozero pin
    factory name (None: gpiozero's own choice); `serial` a device path, "sim" or None."""

    camera: str | None
    gpio: str | None
    pin_factory: str | None
    serial: str | None
    notes: tuple[str, ...] = field(default=())


def pi_model(model_file: Path = MODEL_FILE) -> str | None:
    """"Raspberry Pi 5 Model B Rev 1.0" on a Pi, None elsewhere."""
    try:
        text = model_file.read_bytes().rstrip(b"\0").decode("ascii", "replace").strip()
    except OSError:
        return None
    return text if text.startswith("Raspberry Pi") else None


def pi_cameras() -> int:
    """How many cameras picamera2 lists (0 when picamera2 is not installed)."""
    if importlib.util.find_spec("picamera2") is None:
        return 0
    try:
        from picamera2 import Picamera2

        return len(Picamera2.global_camera_info())
    except Exception:  # libcamera missing or broken: treat as no camera
        return 0


def detect(camera: str | None = None, gpio: str | None = None, serial: str | None = None,
           model: str | None = None, cameras: Callable[[], int] = pi_cameras,
           find_board: Callable[[], str | None] | None = None) -> Hardware:
    """Decide what to use: the flags where given, else what is found (`model` is the Pi's model
    text, None off a Pi)."""
    notes: list[str] = []
    on_pi = model is not None
    if camera is None:
        if not on_pi:
            camera = "sim"
        elif cameras() > 0:
            camera = "pi"
        else:
            notes.append("no camera found (picamera2 lists none): cards are entered on the "
                         "page")
    else:
        camera = _camera_flag(camera)
    if gpio is None:
        gpio = "real" if on_pi else "mock"
    if gpio not in ("real", "mock", "off"):
        raise CommandError(f"--gpio is real, mock or off, not {gpio!r}")
    factory = ("lgpio" if model and "Pi 5" in model else None) if gpio == "real" else \
        "mock" if gpio == "mock" else None
    if gpio == "off":
        notes.append("GPIO buttons off: bids and passes are made on the page or the board")
    if serial is None:
        if not on_pi:
            serial = "sim"
        else:
            serial = find_board() if find_board is not None else None
            if serial is None:
                notes.append("no serial board plugged in: the GPIO buttons and the page take "
                             "its place (plug it in and restart to use it)")
    elif serial == "off":
        serial = None
    elif serial != "sim" and not Path(serial).exists():
        raise CommandError(f"--serial {serial}: no such device; plug the board in, or use "
                           "--serial sim or --serial off")
    return Hardware(camera, None if gpio == "off" else gpio, factory, serial, tuple(notes))


def _camera_flag(spec: str) -> str | None:
    kind, _, arg = spec.partition(":")
    if spec == "off":
        return None
    if kind in ("pi", "sim") and not arg:
        return spec
    if kind == "usb" and arg.isdigit():
        return spec
    if kind == "file":
        if not Path(arg).is_file():
            raise CommandError(f"--camera {spec}: no such video file")
        return spec
    raise CommandError(f"--camera is pi, usb:N, file:PATH, sim or off, not {spec!r}")
