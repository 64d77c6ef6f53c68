"""A small vector PDF writer: filled and stroked rectangles, lines and Helvetica text, in
millimetres with y down, on pages of any size; a drawing can be placed on many pages (as a form
XObject, stored once) and clipped, which is how a large mat is tiled onto home-printer paper.

Written out rather than taken from a library: the mat and the table card need about ten PDF
operators, and Pillow (which the Pi has) only writes raster PDFs.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

PT_PER_MM = 72 / 25.4


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def _text(s: str) -> str:
    """A PDF string literal in WinAnsi (Latin-1 here): parentheses and backslash escaped."""
    raw = s.encode("latin-1", "replace").decode("latin-1")
    return "(" + raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


@dataclass
class Canvas:
    """Drawing operations in mm, origin top-left, y down."""

    ops: list[str] = field(default_factory=list)

    def fill(self, rgb: tuple[int, int, int]) -> Canvas:
        self.ops.append(" ".join(_num(c / 255) for c in rgb) + " rg")
        return self

    def stroke(self, rgb: tuple[int, int, int], width_mm: float) -> Canvas:
        self.ops.append(" ".join(_num(c / 255) for c in rgb) + f" RG {_num(width_mm)} w")
        return self

    def rect(self, x: float, y: float, w: float, h: float, paint: str = "f") -> Canvas:
        """`paint`: "f" fill, "S" stroke."""
        self.ops.append(f"{_num(x)} {_num(y)} {_num(w)} {_num(h)} re {paint}")
        return self

    def line(self, x0: float, y0: float, x1: float, y1: float) -> Canvas:
        self.ops.append(f"{_num(x0)} {_num(y0)} m {_num(x1)} {_num(y1)} l S")
        return self

    def text(self, x: float, y: float, size_mm: float, words: str,
             rgb: tuple[int, int, int] = (0, 0, 0)) -> Canvas:
        """Helvetica with its baseline starting at (x, y)."""
        colour = " ".join(_num(c / 255) for c in rgb)
        self.ops.append(f"BT {colour} rg /F1 {_num(size_mm)} Tf 1 0 0 -1 {_num(x)} {_num(y)} Tm "
                        f"{_text(words)} Tj ET")
        return self

    def place(self, form: str, x: float, y: float, clip: tuple[float, float, float, float]
              | None = None) -> Canvas:
        """Draw form `form` (see Document.form) with its top-left at (x, y), clipped to
        `clip` (x, y, w, h in this canvas) if given."""
        self.ops.append("q")
        if clip is not None:
            self.ops.append(" ".join(_num(v) for v in clip) + " re W n")
        self.ops.append(f"1 0 0 1 {_num(x)} {_num(y)} cm /{form} Do Q")
        return self

    def content(self) -> bytes:
        return "\n".join(self.ops).encode("latin-1")


def text_width(words: str, size_mm: float) -> float:
    """Roughly how wide Helvetica sets `words` (0.55 em per character on average)."""
    return len(words) * size_mm * 0.55


class Document:
    """Pages in mm; `tobytes()` is the PDF file."""

    def __init__(self) -> None:
        self._objects: list[bytes] = [b"", b""]  # 1: catalog, 2: page tree (at the end)
        self._pages: list[int] = []
        self._forms: dict[str, int] = {}
        self._font = self._add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                               b"/Encoding /WinAnsiEncoding >>")

    def form(self, name: str, canvas: Canvas, width: float, height: float) -> str:
        """Store a drawing once, to place on pages by name (Canvas.place). It is drawn in the
        placing canvas's own units: mm, y down."""
        self._forms[name] = self._stream(
            canvas.content(), f"/Type /XObject /Subtype /Form /BBox [0 0 {_num(width)} "
                              f"{_num(height)}] /Resources << /Font << /F1 {self._font} 0 R >> >>")
        return name

    def page(self, canvas: Canvas, width: float, height: float) -> None:
        flip = f"{_num(PT_PER_MM)} 0 0 {_num(-PT_PER_MM)} 0 {_num(height * PT_PER_MM)} cm\n"
        contents = self._stream(flip.encode() + canvas.content(), "")
        forms = " ".join(f"/{n} {i} 0 R" for n, i in self._forms.items())
        self._pages.append(self._add(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_num(width * PT_PER_MM)} "
            f"{_num(height * PT_PER_MM)}] /Resources << /Font << /F1 {self._font} 0 R >> "
            f"/XObject << {forms} >> >> /Contents {contents} 0 R >>".encode()))

    def tobytes(self) -> bytes:
        self._objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
        kids = " ".join(f"{i} 0 R" for i in self._pages)
        self._objects[1] = f"<< /Type /Pages /Kids [{kids}] /Count {len(self._pages)} >>".encode()
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(self._objects, start=1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(self._objects) + 1}\n0000000000 65535 f \n".encode()
        out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
        out += (f"trailer\n<< /Size {len(self._objects) + 1} /Root 1 0 R >>\nstartxref\n"
                f"{xref}\n%%EOF\n").encode()
        return bytes(out)

    def _add(self, body: bytes) -> int:
        self._objects.append(body)
        return len(self._objects)

    def _stream(self, data: bytes, entries: str) -> int:
        packed = zlib.compress(data, 9)
        return self._add(f"<< {entries} /Filter /FlateDecode /Length {len(packed)} >>\n"
                         "stream\n".encode() + packed + b"\nendstream")
