"""Team and squad naming in a mail: the names it gives, checked and applied before any other
order is read (a renamed squad is what the other orders refer to)."""

from __future__ import annotations

from dataclasses import replace

from engine.errors import IllegalOrder, OrderError, Span
from engine.flungo.language._grammar import name_words
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine, FreeText, check_name
from engine.flungo.language._names import NameBook
from engine.flungo.language._state import ReadState
from engine.flungo.squad import SQUAD_SIZE, Team
from engine.lookalike import lookalike_key

__all__ = ["apply_naming"]


def apply_naming(
    lines: list[CleanLine | None], free: dict[int, FreeText], team: Team, st: ReadState
) -> Team:
    """Apply team and squad naming; a renamed squad is what the other orders refer to."""
    book = NameBook([p.name for p in team.players])
    slots: dict[int, tuple[str, Item]] = {}
    words = name_words()
    for cl in lines:
        if cl is None or cl.number not in free:
            continue
        ft = free[cl.number]
        item = Item(cl, ft.kind, ft.value, ft.value_index, ft.value_index + len(ft.value))
        if ft.kind == "note":
            st.items.append(Item(cl, "note", ft.value))
            continue
        problem = check_name(ft.value, words if ft.kind != "team" else frozenset())
        if problem:
            st.errors.append(item.error(IllegalOrder, problem))
            continue
        if ft.kind == "team":
            st.items.append(item)
            continue
        if ft.kind == "rename":
            assert ft.old is not None
            old_span = Span(
                cl.number, cl.column(ft.old_index), cl.column(ft.old_index + len(ft.old))
            )
            try:
                old = book.find(ft.old, source_line=cl.raw, span=old_span)
                slot = next(i for i, p in enumerate(team.players, 1) if p.name == old)
            except OrderError as exc:
                # the placeholder the slot had before it was named ("rename Batsman 3 as X")
                former = NameBook(list(st.context.former_names))
                found = former.candidates(ft.old) if st.context.former_names else []
                if len(found) != 1:
                    st.errors.append(exc)
                    continue
                slot = st.context.former_names.index(found[0]) + 1
        else:
            slot = ft.slot or 0
            if not 1 <= slot <= SQUAD_SIZE:
                st.errors.append(item.error(IllegalOrder, f"squad slots are 1 to {SQUAD_SIZE}"))
                continue
        item.kind, item.value = "slot", (slot, ft.value)
        slots[slot] = (ft.value, item)
        st.items.append(item)
    if not slots:
        return team  # nobody renamed: no new name to hold against the others
    final = {i: p.name for i, p in enumerate(team.players, 1)}
    for slot, (name, _) in slots.items():
        final[slot] = name
    # Names are compared as a reader sees them (their TS #39 skeletons, case folded): two
    # that look alike would be one name to the manager reading the scorecard.
    seen: dict[str, int] = {}
    for slot in sorted(
        final, key=lambda s: (s in slots, slots[s][1].line.number if s in slots else 0)
    ):
        keys = lookalike_key(final[slot])
        taken = next((seen[k] for k in keys if k in seen), None)
        if taken is not None and slot in slots:
            item = slots[slot][1]
            other = final[taken]
            problem = (
                f"'{final[slot]}' is already the name of squad member {taken}"
                if other.casefold() == final[slot].casefold()
                else f"'{final[slot]}' looks just like '{other}', the name of squad member "
                f"{taken}: give a name that reads differently"
            )
            st.errors.append(item.error(IllegalOrder, problem))
            final[slot] = team.players[slot - 1].name
            continue
        for k in keys:
            seen.setdefault(k, slot)
    players = tuple(
        p if p.name == final[i] else replace(p, name=final[i])
        for i, p in enumerate(team.players, 1)
    )
    return replace(team, players=players)
