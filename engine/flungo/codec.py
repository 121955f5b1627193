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
    cls = type(value)
    fn = _ENCODERS.get(cls)
    if fn is None:
        fn = _ENCODERS[cls] = _encoder_for(cls)
    return fn(value)


# An encoder per type, chosen once: a season's state holds thousands of balls, players and
# orders, and asking each value the questions below in turn was most of the cost of writing
# one out. The order of the questions is kept (a bool is an int; a str enum is an enum).
_Encoder = typing.Callable[[Any], Any]
_ENCODERS: dict[type, _Encoder] = {}


def _encoder_for(cls: Any) -> _Encoder:
    if cls is type(None) or issubclass(cls, bool | int | float):
        return _identity
    if issubclass(cls, Enum):
        return _enum_value
    if issubclass(cls, str):
        return _identity
    if issubclass(cls, Ball):
        return _ball
    if issubclass(cls, Roll):
        return _roll_list
    if issubclass(cls, tuple | list):
        return _sequence
    names = _field_names(cls)
    if names is None:
        raise TypeError(f"cannot encode {cls.__name__}")
    return _dataclass_encoder(cls.__name__, names)


def _enum_value(value: Enum) -> Any:
    return value.value


def _ball(value: Ball) -> Any:
    return value.to_json()


def _roll_list(value: Roll) -> list[Any]:
    return [value.die, value.value, value.purpose]


def _sequence(value: tuple[Any, ...] | list[Any]) -> list[Any]:
    return [encode(v) for v in value]


def _dataclass_encoder(name: str, names: tuple[str, ...]) -> _Encoder:
    def enc(value: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": name}
        for field in names:
            out[field] = encode(getattr(value, field))
        return out

    return enc


@cache
def _field_names(cls: Any) -> tuple[str, ...] | None:
    """A dataclass's field names (None: not a dataclass), looked up once per class."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


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
    return _decoder(tp)(data)


# Decoding reads the type hints once per type and keeps a function for it: a season's state
# holds thousands of balls, players and orders, and walking the hints for each value was most
# of the cost of reading one back.
_Decoder = typing.Callable[[Any], Any]


@cache
def _decoder(tp: Any) -> _Decoder:
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is _UNION_TYPE:
        return _union_decoder(tp)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(args[0], tp)
        return _fixed_tuple(args, tp)
    if tp is Any:
        return _identity
    if tp is Ball:
        return ball_from_json
    if tp is Roll:
        return _roll
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp
    if tp is bool:
        return _bool
    if tp is int:
        return _int
    if tp is float:
        return _float
    if tp is str:
        return _str
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    raise TypeError(f"cannot decode {tp}")


def _identity(data: Any) -> Any:
    return data


def _roll(data: Any) -> Roll:
    return Roll(int(data[0]), int(data[1]), str(data[2]))


def _bool(data: Any) -> bool:
    if not isinstance(data, bool):
        raise ValueError(f"expected a boolean, got {data!r}")
    return data


def _int(data: Any) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise ValueError(f"expected an integer, got {data!r}")
    return data


def _float(data: Any) -> float:
    if isinstance(data, bool) or not isinstance(data, int | float):
        raise ValueError(f"expected a number, got {data!r}")
    return float(data)


def _str(data: Any) -> str:
    if not isinstance(data, str):
        raise ValueError(f"expected a string, got {data!r}")
    return data


def _union_decoder(tp: Any) -> _Decoder:
    args = typing.get_args(tp)
    nullable = type(None) in args
    options = [a for a in args if a is not type(None)]
    tagged = {a.__name__: a for a in reversed(options) if isinstance(a, type)}

    def dec(data: Any) -> Any:
        if data is None:
            if nullable:
                return None
            raise ValueError(f"null where {tp} expected")
        if isinstance(data, dict) and "type" in data:
            named = tagged.get(data["type"])
            if named is not None:
                return _decoder(named)(data)
        for a in options:
            try:
                return _decoder(a)(data)
            except (ValueError, TypeError, KeyError):
                continue
        raise ValueError(f"{data!r} is none of {tp}")

    return dec


def _tuple_of(item: Any, tp: Any) -> _Decoder:
    def dec(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        one = _decoder(item)
        return tuple(one(v) for v in data)

    return dec


def _fixed_tuple(args: tuple[Any, ...], tp: Any) -> _Decoder:
    def dec(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        if len(args) != len(data):
            raise ValueError(f"expected {len(args)} items for {tp}")
        return tuple(_decoder(a)(v) for a, v in zip(args, data, strict=True))

    return dec


def _dataclass_decoder(tp: type) -> _Decoder:
    # The fields' decoders are looked up at the first call, not here: a type may contain
    # itself (a Rule's ``then``), and its decoder is being built.
    fields: list[tuple[str, _Decoder]] = []

    def dec(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {tp.__name__}")
        named = data.get("type", tp.__name__)
        if named != tp.__name__:
            sub = _subclass(tp, named)
            if sub is None:
                raise ValueError(f"expected {tp.__name__}, got {named}")
            return _decoder(sub)(data)
        if not fields:
            hints = _hints(tp)
            fields[:] = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(tp)]
        kwargs = {name: one(data[name]) for name, one in fields if name in data}
        return tp(**kwargs)

    return dec
