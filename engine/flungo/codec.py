"""A small JSON codec for the engine's frozen values (orders, squads, match state).

Dataclasses become objects tagged with ``"type"`` (so unions such as ``Action`` decode without
guessing), enums their values, tuples lists, balls their issue-2 JSON. Decoding follows the
dataclasses' type hints, so ``decode(T, encode(x)) == x`` for every value the engine stores.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from functools import cache
from typing import Any, TypeVar

from engine.dice import Roll
from engine.flungo.events import Ball, ball_from_json

__all__ = ["decode", "encode"]

T = TypeVar("T")
_UNION_TYPE = type(int | None)  # types.UnionType, without importing types


def encode(value: Any) -> Any:
    """``value`` as plain JSON data (dicts, lists, strings, numbers, booleans, null)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, str):
        return value
    if isinstance(value, Ball):
        return value.to_json()
    if isinstance(value, Roll):
        return [value.die, value.value, value.purpose]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = encode(getattr(value, f.name))
        return out
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    raise TypeError(f"cannot encode {type(value).__name__}")


@cache
def _subclass(cls: type, name: str) -> type | None:
    """The dataclass subclass of ``cls`` called ``name`` (the typed match events).

    A ``slots=True`` dataclass is a new class that replaces the one its body defined, and the
    replaced one still shows in ``__subclasses__()``: prefer the one with its own slots."""
    subs: list[type] = cls.__subclasses__()
    same = sorted((s for s in subs if s.__name__ == name), key=lambda s: "__slots__" not in vars(s))
    if same:
        return same[0]
    for sub in subs:
        found: type | None = _subclass(sub, name)
        if found is not None:
            return found
    return None


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`encode`'s output (``ValueError`` if it cannot)."""
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is _UNION_TYPE:
        args = typing.get_args(tp)
        if data is None:
            if type(None) in args:
                return None
            raise ValueError(f"null where {tp} expected")
        options = [a for a in args if a is not type(None)]
        if isinstance(data, dict) and "type" in data:
            for a in options:
                if isinstance(a, type) and a.__name__ == data["type"]:
                    return decode(a, data)
        for a in options:
            try:
                return decode(a, data)
            except (ValueError, TypeError, KeyError):
                continue
        raise ValueError(f"{data!r} is none of {tp}")
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items for {tp}")
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if tp is Any:
        return data
    if tp is Ball:
        return ball_from_json(data)
    if tp is Roll:
        return Roll(int(data[0]), int(data[1]), str(data[2]))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if tp is bool:
        if not isinstance(data, bool):
            raise ValueError(f"expected a boolean, got {data!r}")
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise ValueError(f"expected an integer, got {data!r}")
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise ValueError(f"expected a number, got {data!r}")
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise ValueError(f"expected a string, got {data!r}")
        return data
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {tp.__name__}")
        named = data.get("type", tp.__name__)
        if named != tp.__name__:
            sub = _subclass(tp, named)
            if sub is None:
                raise ValueError(f"expected {tp.__name__}, got {named}")
            tp = sub
        hints = _hints(tp)
        kwargs = {
            f.name: decode(hints[f.name], data[f.name])
            for f in dataclasses.fields(tp)
            if f.name in data
        }
        return tp(**kwargs)
    raise TypeError(f"cannot decode {tp}")
