"""A small JSON codec for the engine's frozen values (orders, squads, match state).

Dataclasses become objects tagged with ``"type"`` (so unions such as ``Action`` decode without
guessing), enums their values, tuples lists, balls their issue-2 JSON. Decoding follows the
dataclasses' type hints, so ``decode(T, encode(x)) == x`` for every value the engine stores.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from typing import Any, TypeVar

from engine.dice import Roll
from engine.flungo.events import Ball, ball_from_json

__all__ = ["decode", "decoder", "encode"]

T = TypeVar("T")
_UNION_TYPE = type(int | None)  # types.UnionType, without importing types


def encode(value: Any) -> Any:
    """``value`` as plain JSON data (dicts, lists, strings, numbers, booleans, null)."""
    return _Encoding().encode(value)


# An encoder per type, chosen once per call: a season's state holds thousands of balls,
# players and orders, and asking each value the questions below in turn was most of the cost
# of writing one out. The choices live as long as the call (the engine keeps no memo between
# calls); the order of the questions is kept (a bool is an int; a str enum is an enum).
_Encoder = typing.Callable[[Any], Any]


class _Encoding:
    """One call of :func:`encode`: the encoder chosen for each type met so far."""

    __slots__ = ("_by_type",)

    def __init__(self) -> None:
        self._by_type: dict[type, _Encoder] = {}

    def encode(self, value: Any) -> Any:
        cls = type(value)
        fn = self._by_type.get(cls)
        if fn is None:
            fn = self._by_type[cls] = self._encoder_for(cls)
        return fn(value)

    def _encoder_for(self, cls: type) -> _Encoder:
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
            return self._sequence
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"cannot encode {cls.__name__}")
        names = tuple(f.name for f in dataclasses.fields(cls))
        return self._dataclass_encoder(cls.__name__, names)

    def _sequence(self, value: tuple[Any, ...] | list[Any]) -> list[Any]:
        return [self.encode(v) for v in value]

    def _dataclass_encoder(self, name: str, names: tuple[str, ...]) -> _Encoder:
        encode = self.encode

        def enc(value: Any) -> dict[str, Any]:
            out: dict[str, Any] = {"type": name}
            for field in names:
                out[field] = encode(getattr(value, field))
            return out

        return enc


def _enum_value(value: Enum) -> Any:
    return value.value


def _ball(value: Ball) -> Any:
    return value.to_json()


def _roll_list(value: Roll) -> list[Any]:
    return [value.die, value.value, value.purpose]


def _subclasses(cls: type) -> dict[str, type]:
    """Every dataclass below ``cls`` by name (the typed match events), nearest first.

    A ``slots=True`` dataclass is a new class that replaces the one its body defined, and the
    replaced one still shows in ``__subclasses__()``: prefer the one with its own slots."""
    found: dict[str, type] = {}
    level: list[type] = [cls]
    while level:
        below: list[type] = []
        for parent in level:
            subs: list[type] = sorted(
                parent.__subclasses__(), key=lambda s: "__slots__" not in vars(s)
            )
            for sub in subs:
                found.setdefault(sub.__name__, sub)
            below += subs
        level = below
    return found


def decode(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from :func:`encode`'s output (``ValueError`` if it cannot)."""
    return decoder(tp)(data)


# Decoding reads the type hints once per type and keeps a function for it: a season's state
# holds thousands of balls, players and orders, and walking the hints for each value was most
# of the cost of reading one back. Reading the hints is itself the dearer part of a small
# decode, so a type read often keeps its decoder where it is defined, built at import
# (``_FROM_JSON = decoder(MatchState)``): built whole, it never changes after.
_Decoder = typing.Callable[[Any], Any]


def decoder(tp: Any) -> _Decoder:
    """A function reading ``tp`` from :func:`encode`'s output, built whole now (every type it
    contains, every subclass it may name): keep it as a constant beside a type read often."""
    return _Decoders().decoder(tp)


class _Decoders:
    """The decoders being built for one type and everything it contains."""

    __slots__ = ("_by_type",)

    def __init__(self) -> None:
        self._by_type: dict[Any, _Decoder] = {}

    def decoder(self, tp: Any) -> _Decoder:
        fn = self._by_type.get(tp)
        if fn is None:
            fn = self._build(tp)
            self._by_type.setdefault(tp, fn)
        return fn

    def _build(self, tp: Any) -> _Decoder:
        origin = typing.get_origin(tp)
        if origin is typing.Union or origin is _UNION_TYPE:
            return self._union_decoder(tp)
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return _tuple_of(self.decoder(args[0]), tp)
            return _fixed_tuple(tuple(self.decoder(a) for a in args), tp)
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
            return self._dataclass_decoder(tp)
        raise TypeError(f"cannot decode {tp}")

    def _union_decoder(self, tp: Any) -> _Decoder:
        args = typing.get_args(tp)
        nullable = type(None) in args
        options = [self.decoder(a) for a in args if a is not type(None)]
        tagged = {
            a.__name__: self.decoder(a)
            for a in reversed([a for a in args if a is not type(None)])
            if isinstance(a, type)
        }

        def dec(data: Any) -> Any:
            if data is None:
                if nullable:
                    return None
                raise ValueError(f"null where {tp} expected")
            if isinstance(data, dict) and "type" in data:
                named = tagged.get(data["type"])
                if named is not None:
                    return named(data)
            for one in options:
                try:
                    return one(data)
                except (ValueError, TypeError, KeyError):
                    continue
            raise ValueError(f"{data!r} is none of {tp}")

        return dec

    def _dataclass_decoder(self, tp: type) -> _Decoder:
        fields: list[tuple[str, _Decoder]] = []
        subs: dict[str, _Decoder] = {}

        def dec(data: Any) -> Any:
            if not isinstance(data, dict):
                raise ValueError(f"expected an object for {tp.__name__}")
            named = data.get("type", tp.__name__)
            if named != tp.__name__:
                sub = subs.get(named)
                if sub is None:
                    # A subclass defined after this decoder was built: found and built now,
                    # once for its class (the table grows with the program's classes, never
                    # with what it reads: an unknown tag is refused, not kept).
                    late = _subclasses(tp).get(named)
                    if late is None or not dataclasses.is_dataclass(late):
                        raise ValueError(f"expected {tp.__name__}, got {named}")
                    sub = subs[named] = decoder(late)
                return sub(data)
            kwargs = {name: one(data[name]) for name, one in fields if name in data}
            return tp(**kwargs)

        # Known before its fields are built: a type may contain itself (a Rule's ``then``).
        self._by_type[tp] = dec
        hints = typing.get_type_hints(tp)
        fields += [(f.name, self.decoder(hints[f.name])) for f in dataclasses.fields(tp)]
        for name, sub in _subclasses(tp).items():
            if name != tp.__name__ and dataclasses.is_dataclass(sub):
                subs[name] = self.decoder(sub)
        return dec


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


def _tuple_of(one: _Decoder, tp: Any) -> _Decoder:
    def dec(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        return tuple(one(v) for v in data)

    return dec


def _fixed_tuple(ones: tuple[_Decoder, ...], tp: Any) -> _Decoder:
    def dec(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise ValueError(f"expected a list for {tp}")
        if len(ones) != len(data):
            raise ValueError(f"expected {len(ones)} items for {tp}")
        return tuple(one(v) for one, v in zip(ones, data, strict=True))

    return dec
