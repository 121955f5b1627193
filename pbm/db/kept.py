"""Values derived from stored rows, kept for as long as the session factory that read them.

A reply to an orders mail names the team's next fixture and its outlook, both read from the
competition's stored season, which is large and changes only when a stage resolves. Reading
it for every mail is most of an orders mail's cost, so the derived values are kept, each
under its row's version, and read again only when the version moved (another process may
have moved it: the version is in the row every mail loads anyway).

They are kept by one :class:`Kept` per session factory (:func:`pbm.db.session.make_session_factory`
puts it in the factory's ``info``; every session of the factory shares it), so what is kept
lives as long as the App that owns the factory, and two Apps on two databases in one process
(tests, an embedding) never see each other's values: ids and versions repeat across
databases, a factory does not. A session made without the factory keeps nothing past itself.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from sqlalchemy.orm import Session

__all__ = ["Kept", "Shelf", "ShelfOf", "kept"]

V = TypeVar("V")

_KEY = "kept"


class Shelf(Generic[V]):
    """Up to ``size`` values, each under its key and the version it was derived from; the
    least recently used goes first. Safe to share between the threads of one process (the
    SMTP listener's and the daemon's)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, tuple[Hashable, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, version: Hashable, make: Callable[[], V]) -> V:
        """The value kept under ``key`` for ``version``, or ``make()``'s, kept from now on.
        ``make`` runs outside the lock: two threads missing at once both derive it, which is
        only wasted work, where holding the lock would serialise every mail's reply."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None and hit[0] == version:
                self._items.move_to_end(key)
                return hit[1]
        value = make()
        with self._lock:
            self._items[key] = (version, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True, slots=True)
class ShelfOf(Generic[V]):
    """A shelf's name and room, declared once by the module that keeps values there: the
    type parameter is what the shelf holds, so a caller reads back the type it put in."""

    name: str
    size: int


class Kept:
    """The shelves of one session factory, one per :class:`ShelfOf` that asked for one."""

    def __init__(self) -> None:
        self._shelves: dict[str, Shelf[Any]] = {}
        self._lock = threading.Lock()

    def shelf(self, of: ShelfOf[V]) -> Shelf[V]:
        """The shelf ``of`` names, made with its room the first time it is asked for."""
        found = self._shelves.get(of.name)  # one dict read: no lock for a shelf that exists
        if found is not None:
            return cast(Shelf[V], found)
        with self._lock:
            found = self._shelves.get(of.name)
            if found is None:
                found = self._shelves[of.name] = Shelf(of.size)
            return cast(Shelf[V], found)

    def clear(self) -> None:
        """Forget everything kept."""
        with self._lock:
            self._shelves.clear()


def kept(session: Session) -> Kept:
    """The :class:`Kept` of the factory that made ``session`` (one of its own, for the
    session's lifetime, when it was made without one)."""
    found = session.info.get(_KEY)
    if not isinstance(found, Kept):
        found = session.info[_KEY] = Kept()
    return found
