"""The common ground of the immutable parts of a position (standing.py, hand.py, auction.py):
equality, hash and repr by their fields, and the `KEEP` default of their `replace` methods."""

from __future__ import annotations

import enum
from typing import ClassVar, Final


class Keep(enum.Enum):
    """The default of a `replace` keyword: keep the field as it is."""

    KEEP = 0


KEEP: Final = Keep.KEEP


class Value:
    """An immutable value: equal to another of its class with equal fields (`FIELDS`, in the
    order of the constructor's parameters)."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def _key(self) -> tuple[object, ...]:
        """What equality and the hash compare: every field."""
        return tuple([getattr(self, f) for f in self.FIELDS])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Value):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.FIELDS)
        return f"{type(self).__name__}({inner})"
