"""The table card: the page's address as text and QR code, and the table PIN, on an A6 card
to stand on the table (`pinochle-table print-card`). A vector PDF, like the mat."""

from __future__ import annotations

from vision.pdf import Canvas, Document, text_width

CARD_MM = (105.0, 148.0)  # A6: prints on any home printer, and folds into a tent on A4
INK = (20, 20, 20)
QUIET_MODULES = 4  # the white border a QR code needs


def card_pdf(address: str, pin: str, title: str = "Pinochle table") -> bytes:
    import segno

    width, height = CARD_MM
    canvas = Canvas()

    def centred(y: float, size: float, words: str) -> None:
        canvas.text((width - text_width(words, size)) / 2, y, size, words, INK)

    centred(18, 9, title)
    centred(27, 3.6, "Scan with a phone's camera, or type the address:")
    qr = segno.make(address, error="m")
    modules = qr.matrix
    side = 62.0
    cell = side / (len(modules) + 2 * QUIET_MODULES)
    x0, y0 = (width - side) / 2 + QUIET_MODULES * cell, 31 + QUIET_MODULES * cell
    canvas.fill((0, 0, 0))
    for r, row in enumerate(modules):
        for c, dark in enumerate(row):
            if dark:
                canvas.rect(x0 + c * cell, y0 + r * cell, cell + 0.01, cell + 0.01)
    size = min(5.0, (width - 10) / (len(address) * 0.55))
    centred(101, size, address)
    centred(114, 4.5, "Table PIN")
    centred(131, 16, pin)
    centred(141, 2.8, "The PIN lets a phone enter bids, meld and corrections.")
    doc = Document()
    doc.page(canvas, width, height)
    return doc.tobytes()
