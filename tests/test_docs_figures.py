"""Each measured figure is stated once: in the README's figures table (between its
`section:bench` markers), not again in docs/ (docs/benchmarks.md says how each is measured)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# a figure: a decimal, a number of four digits or more, or a number with its unit; or a range
_NUMBER = r"(?:\d[\d,]*\.\d+|\d{1,3}(?:,\d{3})+|\d{4,}|\d+(?= ?(?:ms|MB|KB|%)))"
FIGURE = re.compile(rf"(?:\d[\d,.]*-{_NUMBER}|{_NUMBER})(?: ?(?:%|ms|KB|MB))?")
# what the table's cells name beside the figures: Python versions, a load, a number of cards
# asked for, a confidence level
NOT_FIGURES = {"3.11", "0.2", "12,000", "95 %"}


def measured_figures() -> set[str]:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("<!-- section:bench -->"):text.index("<!-- /section:bench -->")]
    figures: set[str] = set()
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and not set(cells[2]) <= set("- "):
            measured = re.sub(r"`[^`]*`", "", cells[2])  # commands are not figures
            figures |= set(FIGURE.findall(measured))
    return figures - NOT_FIGURES


def test_the_readme_table_has_figures() -> None:
    assert len(measured_figures()) > 20


def test_no_measured_figure_is_stated_again_in_the_docs() -> None:
    figures = measured_figures()
    for path in sorted((ROOT / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        found = {f for f in figures
                 if re.search(rf"(?<![\d.,-]){re.escape(f)}(?![\d-]|[.,]\d)", text)}
        assert not found, f"{path.name} states figures of the README's table again: {found}"
