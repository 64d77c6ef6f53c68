"""The README's example of the rules core runs as written."""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_example_runs() -> None:
    failed, attempted = doctest.testfile(str(README), module_relative=False, verbose=False)
    assert attempted >= 4
    assert failed == 0
