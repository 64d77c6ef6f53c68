"""How deep JSON from outside may nest (the page's bodies, `resume --events` lines).

Python's parser and the event reader recurse: JSON a few hundred levels deep ends in a
RecursionError (a 500 on the page, a crash on the command line), and a correction nested in a
correction hundreds deep, once journalled, could no longer be printed. The deepest JSON a table
event needs is 4 levels (a correction's replacement with its cards).
"""

from __future__ import annotations

from typing import Any

MAX_DEPTH = 16


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True if lists and objects nest more than `limit` levels (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item \
            if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False
