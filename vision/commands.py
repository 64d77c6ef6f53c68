"""Subcommands of `pinochle-table` that belong to this package (see table/cli.py):
`print-mat`, `calibrate` and `enroll`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from table.cli_common import CommandError
from table.settings import config_dir  # the settings folder: table.toml, calibration, deck

CAMERA_SETTINGS = "camera.json"   # beside the calibration: what calibrate fixed on the camera


def default_calibration() -> Path:
    return config_dir() / "calibration.json"


def default_deck() -> Path:
    """Where enroll saves the deck's profile, and run looks for it."""
    return config_dir() / "deck.png"


def learned_deck() -> Path:
    """Where the table keeps what it learnt of the deck it plays with (vision/learning.py)."""
    return config_dir() / "learned-deck.png"


def saved_camera_settings() -> Any:
    """The `CameraSettings` calibrate saved in the settings folder, or None when there are
    none; SourceError when the file cannot be read."""
    from .sources import CameraSettings

    path = config_dir() / CAMERA_SETTINGS
    return CameraSettings.load(path) if path.exists() else None


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's subcommands to the `pinochle-table` parser."""
    p = sub.add_parser("print-mat", help="write the printable mat (PDF or PNG)",
                       description="Write the mat to print: ArUco markers in the corners, each "
                       "seat's play spot and meld area, the kitty in the middle.")
    p.add_argument("--seats", type=int, choices=(3, 4), default=3)
    p.add_argument("--paper", choices=("full", "a4", "letter"), default="full",
                   help="full: one page the mat's size (a print shop); a4, letter: tiled on "
                        "home-printer sheets with cut marks (PDF only)")
    p.add_argument("--dpi", type=int, default=300, help="PNG resolution (default 300); the "
                   "PDF is vector, sharp at any size")
    p.add_argument("--out", default=None,
                   help="file to write, .pdf or .png (default mat-3-seats.pdf, or "
                        "mat-3-seats-a4.pdf when tiled)")
    p.set_defaults(handler=_print_mat)

    c = sub.add_parser("calibrate", help="find the mat in the camera's view and save it",
                       description="Find the mat's markers, map camera pixels to mat "
                       "millimetres and save it for `run`.")
    c.add_argument("--camera", default="pi", help="pi, usb:N, file:PATH, folder:PATH or sim")
    c.add_argument("--seats", type=int, choices=(3, 4), default=3)
    c.add_argument("--out", default=None, help=f"default {default_calibration()}")
    c.add_argument("--tries", type=int, default=30, help="frames to try before giving up")
    c.set_defaults(handler=_calibrate)

    e = sub.add_parser("enroll", help="teach the camera a deck with unusual faces",
                       description="Show each of the 24 faces once, alone on the mat, when "
                       "asked; pick it up before the next. Writes a deck profile (PNG).")
    e.add_argument("--camera", default="pi", help="pi, usb:N, file:PATH, folder:PATH or sim")
    e.add_argument("--name", default="my deck", help="a name for the deck")
    e.add_argument("--out", default=None, help=f"default {default_deck()}")
    e.set_defaults(handler=_enroll)


def _print_mat(args: argparse.Namespace) -> int:
    from .mat import mat_layout, write_mat
    from .mount import CAMERA_MODULE_3, CAMERA_MODULE_3_WIDE, mount_height_cm

    tiled = args.paper != "full"
    out = args.out or f"mat-{args.seats}-seats{'-' + args.paper if tiled else ''}.pdf"
    if not out.lower().endswith((".pdf", ".png")):
        raise CommandError(f"--out must end in .pdf or .png, not {out!r}")
    if tiled and not out.lower().endswith(".pdf"):
        raise CommandError(f"--paper {args.paper} tiles a PDF: give an --out ending in .pdf")
    if not 50 <= args.dpi <= 600:
        raise CommandError("--dpi must be between 50 and 600")
    layout = mat_layout(args.seats)
    try:
        write_mat(layout, out, args.dpi, args.paper)
    except OSError as exc:
        raise CommandError(f"cannot write {out}: {exc}") from None
    how = f"at {args.dpi} dpi" if out.lower().endswith(".png") else \
        (f"on {args.paper.upper() if args.paper == 'a4' else 'Letter'} sheets with cut marks"
         if tiled else "as a vector PDF")
    print(f"wrote {out}: {layout.width:.0f} x {layout.height:.0f} mm {how} "
          f"({args.seats} seats). Print it true to size (100 %, no 'fit to page').")
    print(f"Hang a Pi {CAMERA_MODULE_3.name} {mount_height_cm(layout, CAMERA_MODULE_3)} cm "
          f"above the mat (the Wide model: {mount_height_cm(layout, CAMERA_MODULE_3_WIDE)} cm).")
    return 0


def _open(spec: str, seats: int, settings: Any = None) -> Any:
    from .sources import SourceError, open_source

    try:
        return open_source(spec, seats=seats, settings=settings)
    except SourceError as exc:
        raise CommandError(str(exc)) from None


def _calibrate(args: argparse.Namespace) -> int:
    from .calibration import CalibrationError, calibrate
    from .mat import mat_layout

    source = _open(args.camera, args.seats)
    layout = mat_layout(args.seats)
    error = "the camera gave no frames"
    try:
        for _ in range(max(1, args.tries)):
            frame = source.read()
            if frame is None:
                break
            try:
                result = calibrate(frame.image, layout)
            except CalibrationError as exc:
                error = str(exc)
                continue
            out = Path(args.out) if args.out else default_calibration()
            try:
                result.save(out)
            except OSError as exc:
                raise CommandError(f"cannot write {out}: {exc}") from None
            card_px = result.px_per_mm * layout.card[0]
            print(f"calibrated: {len(result.markers)} markers, {result.px_per_mm:.2f} px/mm, "
                  f"a card is {card_px:.0f} px wide; saved {out}")
            if hasattr(source, "fix_exposure"):
                settings = source.fix_exposure()
                saved = out.parent / CAMERA_SETTINGS
                try:
                    settings.save(saved)
                except OSError as exc:
                    raise CommandError(f"cannot write {saved}: {exc}") from None
                print(f"camera fixed: {settings.describe()}; saved {saved}")
            if card_px < 100:
                print("cards are too small to read well: hang the camera lower or use a "
                      "higher resolution (at least 100 px across a card)")
            return 0
    finally:
        source.close()
    raise CommandError(error)


def _enroll(args: argparse.Namespace) -> int:
    from .enroll import EnrollError, enroll

    if args.camera.startswith("sim"):
        raise CommandError("nobody lays cards in front of the simulated camera: use pi, usb:N, "
                           "or recorded pictures (folder:PATH, file:PATH)")
    from .sources import SourceError

    try:   # the faces as `run` will see them: with what calibrate fixed
        settings = saved_camera_settings()
    except SourceError as exc:
        raise CommandError(str(exc)) from None
    source = _open(args.camera, 3, settings)
    out = Path(args.out) if args.out else default_deck()

    def frames() -> Any:
        while True:
            frame = source.read()
            if frame is None:
                return
            yield frame.image

    def ask(card: Any) -> None:
        print(f"Lay the {card.name} ({card.symbol}) alone on the mat, face up; "
              "pick it up when the next card is asked for.", flush=True)

    try:
        profile = enroll(frames(), args.name, ask)
    except EnrollError as exc:
        raise CommandError(f"{exc}; nothing was saved, start again") from None
    finally:
        source.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    profile.save(out)
    print(f"saved the profile of {args.name!r} to {out}; `pinochle-table run` reads with it "
          "(what the table had learnt of another deck is set aside)")
    return 0
