"""Rules options as text: `min_bid=300`, `beat=trump-led`, `meld.roundhouse=240`.

`options_of(rules)` lists what differs from the preset of the same name; `with_options(rules,
{"min_bid": "300"})` applies such text. The journal, the command line, the page and the position
notation all use this one spelling.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, get_type_hints

from .domains import rule_problem
from .variants import (
    CLASSICAL,
    COUNTERS,
    COUNTERS_TENTHS,
    SIMPLIFIED,
    CardPoints,
    Checks,
    MeldValues,
    NineThrowIn,
    Rules,
    StakeRow,
    preset,
)

_FIXED = ("name", "description", "source")
_SCHEMES = {p.name: p for p in (COUNTERS, CLASSICAL, SIMPLIFIED, COUNTERS_TENTHS)}
_NESTED: dict[str, type] = {"meld": MeldValues, "checks": Checks}


class OptionError(ValueError):
    """An option name or value that does not fit the rules."""


def option_names() -> list[str]:
    out = []
    for f in dataclasses.fields(Rules):
        if f.name in _FIXED:
            continue
        if f.name in _NESTED:
            out += [f"{f.name}.{g.name}" for g in dataclasses.fields(_NESTED[f.name])]
        else:
            out.append(f.name)
    return out


def options_of(rules: Rules) -> dict[str, str]:
    """The options in which `rules` differs from its preset, as text."""
    base = preset(rules.name)
    out: dict[str, str] = {}
    for f in dataclasses.fields(Rules):
        if f.name in _FIXED:
            continue
        mine, theirs = getattr(rules, f.name), getattr(base, f.name)
        if mine == theirs:
            continue
        if f.name in _NESTED:
            for g in dataclasses.fields(_NESTED[f.name]):
                a, b = getattr(mine, g.name), getattr(theirs, g.name)
                if a != b:
                    out[f"{f.name}.{g.name}"] = _format(a)
        else:
            out[f.name] = _format(mine)
    return out


def with_options(rules: Rules, options: Mapping[str, str]) -> Rules:
    """`rules` with each `name=value` option applied; `OptionError` names a bad one."""
    hints = get_type_hints(Rules)
    changes: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for key, text in options.items():
        key = key.strip()
        head, _, sub = key.partition(".")
        if head in _NESTED and sub:
            cls = _NESTED[head]
            sub_hints = get_type_hints(cls)
            if sub not in sub_hints:
                raise OptionError(f"unknown option {key!r}; {head} has: "
                                  f"{', '.join(f.name for f in dataclasses.fields(cls))}")
            nested.setdefault(head, {})[sub] = _parse(key, text, sub_hints[sub])
            continue
        if key in _FIXED or key not in hints or head in _NESTED:
            raise OptionError(f"unknown option {key!r}; known: {', '.join(option_names())}")
        changes[key] = _parse(key, text, hints[key])
    for head, subs in nested.items():
        changes[head] = dataclasses.replace(getattr(rules, head), **subs)
    try:
        result = dataclasses.replace(rules, **changes)
    except (TypeError, ValueError) as exc:
        raise OptionError(str(exc)) from None
    problem = rule_problem(result)  # every option's domain (table/rules/domains.py)
    if problem is not None:
        raise OptionError(problem)
    return result


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, CardPoints):
        if value.name in _SCHEMES and _SCHEMES[value.name] == value:
            return value.name
        return "/".join(str(v) for v in (value.ace, value.ten, value.king, value.queen,
                                          value.jack, value.nine, value.last_trick))
    if isinstance(value, frozenset):
        return "+".join(sorted(v.value for v in value)) or "none"
    if isinstance(value, tuple):
        if value and isinstance(value[0], StakeRow):
            return "+".join(f"{r.min_bid}:{r.win}:{r.set}" for r in value)
        return "+".join(str(v) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)


def _parse(key: str, text: str, hint: Any) -> Any:
    t = str(text).strip()
    args = getattr(hint, "__args__", ())
    try:
        if hint is bool:
            low = t.lower()
            if low in ("yes", "true", "on", "1"):
                return True
            if low in ("no", "false", "off", "0"):
                return False
            raise ValueError("say yes or no")
        if hint is int:
            return int(t)
        if hint == (int | None):
            return None if t.lower() == "none" else int(t)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            try:
                return hint(t.lower())
            except ValueError:
                raise ValueError("one of " + ", ".join(str(m.value) for m in hint)) from None
        if hint is CardPoints:
            if t.lower() in _SCHEMES:
                return _SCHEMES[t.lower()]
            a, ten, k, q, j, n, last = (int(x) for x in t.split("/"))
            return CardPoints(a, ten, k, q, j, n, last, "custom")
        if hint == frozenset[NineThrowIn]:
            if t.lower() in ("none", ""):
                return frozenset()
            return frozenset(NineThrowIn(x) for x in t.lower().split("+"))
        if args and args[0] is StakeRow:
            rows = []
            for part in t.split("+"):
                b, w, s = (int(x) for x in part.split(":"))
                rows.append(StakeRow(b, w, s))
            return tuple(rows)
        if args and args[0] is int:
            return () if t.lower() in ("none", "") else tuple(int(x) for x in t.split("+"))
        if hint is str:
            return t
    except ValueError as exc:
        shown, why = str(text), str(exc)
        shown, why = (shown if len(shown) <= 40 else f"{shown[:40]}..."), why.split(": '")[0]
        raise OptionError(f"bad value {shown!r} for {key}: {why}") from None
    raise OptionError(f"option {key} cannot be set from text")
