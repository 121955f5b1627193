"""A refused line read again with its plain typos put right (:mod:`._typos`), kept with a
note for each when it then reads whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.errors import InvalidOrder
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._model import EchoLine
from engine.flungo.language._names import NameBook
from engine.flungo.language._state import Mark, ReadState
from engine.flungo.language._typos import corrected, offered, sure_typos, typos

__all__ = ["typo_line"]


def typo_line(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    ahead: tuple[bool, Item | None],
    own: NameBook,
    opponent: NameBook | None,
    protect: frozenset[str],
) -> tuple[bool, Item | None]:
    """A line refused, read again with its plain typos put right (:mod:`._typos`): kept,
    with a note for each, when it then reads whole; else the refusal stands as it was."""
    choices = typos(cl.text, own, opponent, protect)
    for k in range(mark[1], len(st.errors)):
        err = st.errors[k]
        two = [w for w, got in choices.items() if len(got) > 1 and f"'{w}'" in err.message.lower()]
        hint = offered(choices[two[0]], err.hint) if two else err.hint
        if hint != err.hint and type(err) is InvalidOrder:
            # "bals": ball or balls, never a guess; a new error, as the old may be kept
            st.errors[k] = InvalidOrder(
                err.message, source_line=err.source_line, span=err.span, hint=hint
            )
    sure = sure_typos(choices)
    if not sure:
        return ahead
    tried = replace(cl, text=corrected(cl.text, sure), plain=corrected(cl.plain, sure))
    st.undo(mark)
    again = read_one(tried)
    if st.reads_whole(mark):
        st.notes += [EchoLine(cl.number, f"read '{w}' as '{r}'") for w, r in sure.items()]
        return again
    st.undo(mark)
    return read_one(cl)
