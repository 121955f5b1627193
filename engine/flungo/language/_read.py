"""Reading a whole email of orders: every line, every error, then the checks across lines."""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import IllegalOrder, InvalidOrder, MendedPlan, OrderError, Span
from engine.flungo.formats import FormatSpec
from engine.flungo.language._build import build_orders, echo_lines
from engine.flungo.language._chatter import (
    forwarded_from,
    is_quoted,
    looks_like_chatter,
    number_words,
)
from engine.flungo.language._checks import check_items
from engine.flungo.language._drafts import (
    BoostD,
    CaptainD,
    ClearD,
    HeaderD,
    KeeperD,
    NumberError,
    OpenersD,
    OrderD,
    PositionD,
    Ref,
    RuleD,
    TossD,
    TreatD,
    XiD,
)
from engine.flungo.language._expand import expand_items, numbered_names, squad_numbers
from engine.flungo.language._grammar import (
    ORDER_WORDS,
    START_HINT,
    keywords,
    name_words,
    parse_line,
    starters,
)
from engine.flungo.language._items import Item
from engine.flungo.language._lines import (
    CleanLine,
    FreeText,
    check_name,
    clean_line,
    has_control,
    is_sign_off,
    mask_names,
    mask_near_miss,
    match_free_text,
)
from engine.flungo.language._lower import Lowerer, Plain
from engine.flungo.language._meaning import meaning_words, name_runs, reword
from engine.flungo.language._model import (
    MAX_LINE_LENGTH,
    EchoLine,
    NotUnderstood,
    OrderContext,
    ParsedOrders,
)
from engine.flungo.language._names import NameBook
from engine.flungo.language._transform import read_line
from engine.flungo.orders import BattingStyle, Rule
from engine.flungo.squad import SQUAD_SIZE, Team
from engine.lookalike import lookalike_key

__all__ = ["Item", "read_orders"]

_CONDITIONAL = re.compile(
    r"\b(if|when|whenever|once|until|unless|after|as soon as|provided|but)\b", re.IGNORECASE
)


@dataclass
class _State:
    items: list[Item] = field(default_factory=list)
    errors: list[OrderError] = field(default_factory=list)
    not_understood: list[NotUnderstood] = field(default_factory=list)
    chatter: list[EchoLine] = field(default_factory=list)
    team: Team | None = None
    context: OrderContext = field(default_factory=OrderContext)
    section_lines: dict[int, str] = field(default_factory=dict)  # line -> heading's kind


def read_orders(text: str, team: Team, fmt: FormatSpec, context: OrderContext) -> ParsedOrders:
    """Read every line of ``text`` (see :func:`engine.flungo.language.parse_orders`)."""
    st = _State(context=context)
    raws = text.splitlines()
    forwarded = forwarded_from(raws)
    lines: list[CleanLine | None] = []
    for number, raw in enumerate(raws, start=1):
        if is_quoted(raw) or (forwarded is not None and number > forwarded):
            # quoted or forwarded text is someone else's: noted, never read as orders
            if raw.strip():
                st.chatter.append(EchoLine(number, raw.strip()))
            lines.append(None)
            continue
        lines.append(_clean(number, raw, st))
    fresh: dict[int, Item] = {}
    for k, cl in enumerate(lines):
        if cl is not None and (got := _fresh(cl)) is not None:
            lines[k], part = got
            fresh[cl.number] = Item(lines[k] or cl, "fresh", part, 0, 0)
        elif cl is not None and (new := _NEW_WHOLE.match(cl.text)) is not None:
            rest = cl.text[new.end() :]
            lines[k] = replace(cl, text=rest, plain=rest, offset=cl.offset + new.end())
    free: dict[int, FreeText] = {}
    for cl in lines:
        if cl is not None and (ft := match_free_text(cl.plain)) is not None:
            free[cl.number] = ft
    free.update(numbered_names(lines, free, team, keywords()))
    team = _naming(lines, free, team, st)
    st.team = team
    own = NameBook([p.name for p in team.players])
    opponent = (
        NameBook([p.name for p in context.opponent.players], "opposing player")
        if context.opponent is not None
        else None
    )
    all_names = list(own.names) + (list(opponent.names) if opponent else [])
    section: Item | None = None
    signed_off = False
    for number, raw in enumerate(text.splitlines(), start=1):
        cl = lines[number - 1]
        if is_sign_off(raw):
            signed_off = True
        if cl is None:
            section = None
            continue
        if cl.number in free:
            section = None
            continue
        if cl.number in fresh:
            st.items.append(fresh[cl.number])
        masked, found = mask_names(cl.text, all_names)
        masked = number_words(masked)
        masked = squad_numbers(masked, found, own.names)
        if section is not None and _section_line(
            cl, masked, found, section, own, opponent, fmt, st, all_names
        ):
            continue
        section = _order_line(cl, masked, found, own, opponent, fmt, st, signed_off, all_names)
    for item in st.items:
        if item.kind in ("order", "xi") and item.value == ():
            what = "batting order" if item.kind == "order" else "XI"
            st.errors.append(
                item.error(
                    InvalidOrder,
                    f"no names follow this {what} heading",
                    hint="put the names on the same line or on the lines just below",
                )
            )
    st.errors += expand_items(st.items, fmt, context)
    check_items(st.items, team, fmt, context, st.errors)
    # a plan read as its nearest legal plan blocks nothing: the plan mended stands
    wrong = {e.span.line for e in st.errors if e.span is not None and not isinstance(e, MendedPlan)}
    for item in st.items:
        if item.kind == "fresh" and item.line.number in wrong:
            item.ok = False  # its part is blocked: what stood before stands, whole
    return _result(st)


# "new bowling plan:", "a fresh batting order -", "brand new styles": the part that follows
# is given afresh, whole, instead of changing only the overs or batsmen it names.
_FRESH = re.compile(
    r"(?:(?:a|my|our|the)\s+)?(?:(?:brand|whole|completely|entirely|all)[\s-]+)?"
    r"(?:new|fresh|replacement|different)\s+"
    r"(?P<part>bowling(?:\s+(?:plan|orders?))?|bowlers|plan|"
    r"batting\s+order|order|(?:batting\s+)?styles)\b"
    r"|replace\s+(?:(?:all\s+)?(?:my|our|the)\s+)?"
    r"(?P<part2>bowling(?:\s+(?:plan|orders?))?|batting\s+order|(?:batting\s+)?styles)"
    r"(?:\s+with)?\b"
    r"|(?P<part3>bowling(?:\s+plan)?|batting\s+order|(?:batting\s+)?styles)"
    r"\s+(?:afresh|from\s+scratch|anew)\b",
    re.IGNORECASE,
)
_FRESH_SEP = re.compile(r"\s*(?:[:=-]|\bis\b|\bas\s+follows\b)*\s*", re.IGNORECASE)
# What the rest of the line is read as: the part's own heading.
_FRESH_HEADING = {"plan": "bowlers: ", "order": "batting order: ", "styles": "styles: "}


# "new XI: ...", "new captain: ...": parts that are always given whole; "new" says nothing
# more, and is read past.
_NEW_WHOLE = re.compile(
    r"(?:a\s+)?new\s+(?=(?:xi|playing\s+xi|eleven|captain|skipper|wicketkeeper|keeper|"
    r"(?:batting\s+|bowling\s+)?reviews)\b)",
    re.IGNORECASE,
)


def _fresh(cl: CleanLine) -> tuple[CleanLine, str] | None:
    """A line that gives a part afresh: the line as its heading and entries, and the part
    (``plan``, ``order`` or ``styles``); ``None`` for any other line."""
    m = _FRESH.match(cl.text)
    if m is None:
        return None
    word = (m.group("part") or m.group("part2") or m.group("part3")).lower()
    part = "styles" if "styles" in word else "order" if word.endswith("order") else "plan"
    if word.startswith(("bowling", "bowlers", "plan")):
        part = "plan"  # "bowling order" is the bowling plan
    sep = _FRESH_SEP.match(cl.text, m.end())
    rest = cl.text[sep.end() if sep else m.end() :]
    head = _FRESH_HEADING[part]
    at = cl.offset + len(cl.text) - len(rest)
    # the heading stands in for the player's words: its columns are those before the rest
    text = head + rest if rest else head.rstrip(" ")
    return replace(cl, text=text, plain=text, offset=at - len(head)), part


def _clean(number: int, raw: str, st: _State) -> CleanLine | None:
    if len(raw) > MAX_LINE_LENGTH:
        st.errors.append(
            InvalidOrder(
                f"this line is too long ({len(raw)} characters; at most {MAX_LINE_LENGTH})",
                source_line=raw[:60] + "...",
                span=Span(number, 1, 64),
                hint="put one order on each line",
            )
        )
        return None
    bad = has_control(raw)
    if bad is not None:
        st.errors.append(
            InvalidOrder(
                f"this line contains a control character ({raw[bad]!r})",
                source_line=raw.replace("\t", " "),
                span=Span(number, bad + 1),
            )
        )
        return None
    return clean_line(number, raw)


def _naming(
    lines: list[CleanLine | None], free: dict[int, FreeText], team: Team, st: _State
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


class _Unparsed(Exception):
    """A line that does not parse. Saying why costs more than the parse (what lark would
    have taken where it broke), so the error is made only for a line that is reported: a
    greeting, a signature or a line tried as names under a heading is not."""

    def __init__(self, cl: CleanLine, masked: str, start: str) -> None:
        super().__init__(masked)
        self.cl, self.masked, self.start = cl, masked, start

    def error(self) -> InvalidOrder:
        """The parse error, located in the player's line."""
        try:
            parse_line(self.cl, self.masked, self.start)
        except InvalidOrder as exc:
            return exc
        raise AssertionError("the line parses")  # pragma: no cover


def _forgiving_parse(
    cl: CleanLine, masked: str, found: dict[int, str], names: list[str], start: str = "start"
) -> tuple[Any, str, dict[int, str]]:
    """Read the line; where it breaks next to a near miss of a name, read that as a name.

    The near miss then fails to match anyone and gets "did you mean", which says more than
    "I don't understand '1' here". Returns what the line says (see :func:`read_line`: a
    ``NumberError`` is returned, for :func:`_said` to raise) with the masked text and names
    it was read with; raises :class:`_Unparsed` when that does not help.
    """
    said = read_line(masked, start, found)
    if not isinstance(said, int):
        return said, masked, found
    first = masked
    found = dict(found)
    for _ in range(24):  # one near miss per try; a line has only so many names
        near = mask_near_miss(masked, names, said, len(names) + len(found))
        if near is None:
            break
        masked, words = near
        found[len(names) + len(found)] = words
        said = read_line(masked, start, found)
        if not isinstance(said, int):
            return said, masked, found
    raise _Unparsed(cl, first, start)  # the first error is the one to report


def _said(said: Any) -> Any:
    """What a line says, or its ``NumberError`` raised."""
    if isinstance(said, NumberError):
        # remembered and raised again for each line alike: without its last traceback, so
        # that a line sent a thousand times does not grow one
        raise said.with_traceback(None)
    return said


def _parse(
    cl: CleanLine, masked: str, found: dict[int, str], start: str, names: list[str]
) -> tuple[Any, str, dict[int, str]] | None:
    try:
        return _forgiving_parse(cl, masked, found, names, start)
    except _Unparsed:
        return None


_FIRST_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# Words an order may start with ("we'll bowl") that start many a sentence that is no order.
_WEAK_STARTERS = frozenset(["i", "we", "i'll", "we'll", "i've", "we've", "i'd", "we'd", "they"])


def _first_word_error(cl: CleanLine, own: NameBook, exc: InvalidOrder) -> InvalidOrder:
    """An unknown first word is reported as an unknown order, with "did you mean"."""
    m = _FIRST_WORD.match(cl.text)
    if m is None or exc.span is None or exc.span.column == cl.column(0):
        return exc
    word = m.group(0)
    weak = word.lower() in _WEAK_STARTERS
    if (word.lower() in starters() and not weak) or own.candidates(word):
        return exc
    if word.lower() in keywords():
        return InvalidOrder(
            "this line is not an order I know",
            source_line=cl.raw,
            span=Span(cl.number, cl.column(0), cl.column(len(word))),
            hint=START_HINT,
        )
    close = difflib.get_close_matches(word.lower(), ORDER_WORDS, n=1, cutoff=0.7)
    hint = f"did you mean '{close[0]}'?" if close else None
    if not close:
        hint = own.unknown(word, source_line=cl.raw, span=exc.span).hint or START_HINT
    return InvalidOrder(
        f"unknown order '{word}'",
        source_line=cl.raw,
        span=Span(cl.number, cl.column(0), cl.column(len(word))),
        hint=hint,
    )


def _order_line(
    cl: CleanLine,
    masked: str,
    found: dict[int, str],
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: _State,
    signed_off: bool = False,
    names: list[str] | None = None,
    reworded: bool = False,
) -> Item | None:
    """Read one order line into items; returns the heading item if the line starts a section.

    A line the canonical words do not read is read for its meaning (:mod:`._meaning`), unless
    it is that reading already (``reworded``).
    """
    if len(parts := _split_selection(cl)) > 1:
        for part in parts:
            at = part.offset - cl.offset
            sub = {
                i: n
                for i, n in found.items()
                if chr(0xE100 + i) in masked[at : at + len(part.text)]
            }
            _order_line(
                part,
                masked[at : at + len(part.text)],
                sub,
                own,
                opponent,
                fmt,
                st,
                signed_off,
                names,
            )
        return None
    try:
        said, masked, found = _forgiving_parse(cl, masked, found, names or [])
        draft = _said(said)
        if isinstance(draft, PositionD) and not own.candidates(draft.ref.text):
            # "Batsmen 3 aggressive" is a near miss of "Batsman 3", not a place in the order
            near = mask_near_miss(masked, names or [], draft.ref.start, len(names or []))
            if near is not None:
                found = {**found, len(names or []): near[1]}
                said, masked, found = _forgiving_parse(cl, near[0], found, names or [])
                draft = _said(said)
    except _Unparsed as unparsed:
        if reworded:
            st.errors.append(unparsed.error())
            return None
        greeting = signed_off or cl.chatter
        if greeting and looks_like_chatter(cl.text, own, keywords()):
            st.chatter.append(EchoLine(cl.number, cl.raw.strip()))  # "Hi GM,", "Thanks"
            return None
        if _meaning_line(cl, own, opponent, fmt, st, signed_off, names or [], unparsed=unparsed):
            return None
        if signed_off or cl.chatter or looks_like_chatter(cl.text, own, keywords()):
            # a greeting, a remark, or the signature under "Thanks," or "Regards"
            st.chatter.append(EchoLine(cl.number, cl.raw.strip()))
            return None
        exc = _first_word_error(cl, own, unparsed.error())
        quota = _quota_error(cl, own)
        if quota is not None:
            # told plainly, and sent to the GM: the player meant something we cannot do
            st.errors.append(quota)
            st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), quota.message))
            return None
        st.errors.append(exc)
        if _CONDITIONAL.search(cl.text):
            st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), exc.message))
        return None
    except NumberError as exc:
        st.errors.append(_number_error(cl, exc))
        return None
    low = Lowerer(cl, own, opponent, fmt)
    low.team = st.team
    items: list[Item] = []
    end = len(cl.text)
    if isinstance(draft, HeaderD) and draft.kind == "none":
        return None  # "Bowling plan:" heading: its lines are orders in their own right
    if isinstance(draft, HeaderD):
        item = Item(cl, "order" if draft.kind == "batting" else "xi", (), 0, end)
        st.items.append(item)
        return item
    if isinstance(draft, XiD):
        items.append(Item(cl, "xi", low.names(draft.refs), 0, end))
        if draft.captain is not None:
            r = draft.captain
            items.append(Item(cl, "captain", low.name(r), r.start, r.end))
        if draft.keeper is not None:
            r = draft.keeper
            items.append(Item(cl, "keeper", low.name(r), r.start, r.end))
    elif isinstance(draft, OpenersD):
        items.append(Item(cl, "openers", low.names(draft.refs), 0, end))
    elif isinstance(draft, PositionD):
        value = (low.name(draft.ref), draft.place, draft.style)
        items.append(Item(cl, "position", value, draft.ref.start, end))
    elif isinstance(draft, ClearD):
        items.append(Item(cl, "clear", draft.part, 0, end))
    elif isinstance(draft, CaptainD):
        items.append(Item(cl, "captain", low.name(draft.ref), draft.ref.start, draft.ref.end))
    elif isinstance(draft, KeeperD):
        items.append(Item(cl, "keeper", low.name(draft.ref), draft.ref.start, draft.ref.end))
    elif isinstance(draft, TossD):
        items.append(Item(cl, "toss", draft.choice, 0, end))
    elif isinstance(draft, OrderD):
        entries = _entries(low, draft.entries)
        items.append(Item(cl, "order", entries, 0, end))
    elif isinstance(draft, TreatD):
        items.append(Item(cl, "treat", (low.name(draft.ref), draft.points), draft.ref.start, end))
    elif isinstance(draft, BoostD):
        items.append(Item(cl, "boost", (low.name(draft.ref), draft.stat), draft.ref.start, end))
    elif isinstance(draft, RuleD):
        result = low.rule(draft)
        if isinstance(result, Rule) and low.elsewhere:
            # "everyone else" naming nobody in its rule: whom it leaves out needs the mail
            items.append(Item(cl, "rule_else", (result, tuple(low.elsewhere)), 0, end))
        elif isinstance(result, Rule):
            items.append(Item(cl, "rule", result, 0, end))
        elif result.readings and not low.errors:
            # two readings: neither is acted on; the player (and the GM) sees both
            st.not_understood.append(
                NotUnderstood(
                    cl.number,
                    cl.raw.strip(),
                    "this can be read two ways, so it is not acted on",
                    tuple(result.readings),
                )
            )
            return None
        else:
            given: dict[int, str] = {}
            for over, bowler in result.plan:
                if given.setdefault(over, bowler) != bowler:
                    # one line giving an over to two bowlers says no plan: never the later
                    low.errors.append(
                        low.invalid(
                            f"this line gives over {over} to both {given[over]} and {bowler}",
                            0,
                            len(cl.text),
                            hint="give each over once, e.g. 'Warne bowls overs 1, 3, 5'",
                        )
                    )
                    break
            items += _plain_items(cl, result)
    if low.errors:
        unread = [e for e in low.errors if not isinstance(e, IllegalOrder)]
        if (
            unread
            and not reworded
            and _meaning_line(cl, own, opponent, fmt, st, signed_off, names or [], unread[0])
        ):
            return None
        st.errors += low.errors
        if unread and _CONDITIONAL.search(cl.text) and isinstance(draft, RuleD):
            st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), unread[0].message))
        return None
    st.items += items
    return None


def _meaning_line(
    cl: CleanLine,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: _State,
    signed_off: bool,
    names: list[str],
    why: OrderError | None = None,
    unparsed: _Unparsed | None = None,
) -> bool:
    """Read a line the canonical words do not read, for its meaning; False to let the
    canonical reader report it as it would (a misspelt order word with its "did you mean",
    a quota of overs)."""
    protect = _protect(tuple(names))
    from engine.flungo.language._plans import bowler_kinds, known_xi

    xi = known_xi(st.items, st.context.standing)
    kinds = bowler_kinds(st.team.players, xi) if st.team is not None else None
    rw = reword(cl.text, protect, fmt.overs, tuple(names), kinds)
    if not rw.texts:
        # nothing in it carries an order: cheering, thanks, a remark; it costs nothing
        st.chatter.append(EchoLine(cl.number, cl.raw.strip()))
        return True
    results = [(text, _read_words(cl, text, own, opponent, fmt, st, names)) for text in rw.texts]
    good = [(t, s) for t, s in results if not s.errors and (s.items or s.not_understood)]
    readings = tuple(dict.fromkeys(_echo(s, st) for _, s in good))
    if len(results) > 1 and len(good) == len(results) and len(readings) > 1:
        # two plausible readings and nothing to choose between them: both are shown, the
        # line goes to the GM with both, and neither is acted on
        st.not_understood.append(
            NotUnderstood(
                cl.number,
                cl.raw.strip(),
                "this can be read two ways, so it is not acted on",
                readings,
            )
        )
        return True
    if good and len(good) == len(results):
        sub = good[0][1]
        st.items += sub.items
        st.not_understood += sub.not_understood
        st.chatter += sub.chatter
        return True
    if signed_off or (cl.chatter and not name_runs(rw.texts[0], protect, tuple(names))):
        return False  # a greeting or a signature with no squad member in it stays chatter
    if cl.chatter:
        # a greeting before a squad member's name ("Greetings, and once more: Stokes opens
        # with Root"): what follows the greeting may be an order, so never let it pass
        return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, why)
    old = _first_word_error(cl, own, unparsed.error()) if unparsed is not None else why
    if old is not None and (
        (old.hint or "").startswith("did you mean") or _quota_error(cl, own) is not None
    ):
        return False  # a misspelt order word, a quota: the canonical reader's word says more
    if _unknown(rw.texts[0], own, opponent, protect):
        return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, why)
    if old is not None and _names_word(old, cl):
        return False  # the canonical reader's own error names the word, caret under it
    return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, why, old)


def _unknown(
    text: str, own: NameBook, opponent: NameBook | None, protect: frozenset[str]
) -> list[str]:
    """The words of ``text`` that may carry meaning and that pbm does not know."""
    known = keywords() | meaning_words() | protect
    return [
        w
        for w in _UNKNOWN_WORD.findall(text)
        if w not in known
        and len(w) > 1
        and not (len(w) >= 3 and (own.candidates(w) or (opponent and opponent.candidates(w))))
    ]


def _names_word(err: OrderError, cl: CleanLine) -> bool:
    """Whether ``err`` quotes a word the player wrote in this line."""
    low = cl.raw.lower()
    return any(q.lower() in low for q in re.findall(r"(?<![\w'])'([^']+)'(?![\w])", err.message))


@functools.lru_cache(maxsize=64)
def _protect(names: tuple[str, ...]) -> frozenset[str]:
    """The words of the squads' names that are no word of the orders ("ant", "dec")."""
    words = keywords()
    return frozenset(
        w
        for n in names
        for w in re.findall(r"[\w']+", n.lower())
        if w not in words and not w.isdigit()
    )


def _read_words(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: _State,
    names: list[str],
) -> _State:
    """``text`` (the line in canonical words) read as the player's line ``cl``, apart."""
    sub = _State(team=st.team, context=st.context)
    cleaned = clean_line(cl.number, text)  # as the player's own line is cleaned
    if cleaned is None:
        return sub
    line = replace(cleaned, raw=cl.raw, offset=cl.offset, chatter=False)
    masked, found = mask_names(text, names)
    masked = squad_numbers(number_words(masked), found, own.names)
    _order_line(line, masked, found, own, opponent, fmt, sub, False, names, reworded=True)
    return sub


def _echo(sub: _State, st: _State) -> str:
    return "\n".join(t for _, t in echo_lines(sub.items, st.context.standing))


_STYLES = ("defensive", "normal", "aggressive", "wahoo")
_UNKNOWN_WORD = re.compile(r"(?<![\w'])[^\W\d_][\w']*")


def _refuse(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: _State,
    names: list[str],
    protect: frozenset[str],
    why: OrderError | None,
    old: OrderError | None = None,
) -> bool:
    """A line with meaning pbm cannot read: the word it does not know, with the caret under
    it and what pbm reads without it; or, when every word is known, where it breaks."""
    unknown = _unknown(text, own, opponent, protect)
    nearest = ""
    if unknown:
        bare = " ".join(w for w in text.split() if w.strip(",;:.") not in unknown)
        sub = _read_words(cl, bare, own, opponent, fmt, st, names)
        if not sub.errors and sub.items:
            nearest = _echo(sub, st)
    if not unknown and why is not None:
        st.errors.append(why)
        if _CONDITIONAL.search(cl.text):
            st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), why.message))
        return True
    if not unknown:
        # every word is known, but not in this order: the word where the reading stops
        sub = _read_words(cl, text, own, opponent, fmt, st, names)
        err = next((e for e in sub.errors if isinstance(e, InvalidOrder)), None)
        quoted = re.findall(r"(?<![\w'])'([^']+)'(?![\w])", err.message) if err is not None else []
        word = quoted[0] if quoted else ""
        at = cl.text.lower().find(word.lower()) if word else -1
        if at < 0:
            # nothing to point at in the reading: the word where the player's line ends
            words = list(_UNKNOWN_WORD.finditer(cl.text))
            if not words:
                return False
            last = words[-1]
            word, at = last.group(0), len(cl.text.rstrip())
            message = f"this order stops too soon, after '{word}'"
        else:
            message = f"I can't read '{word}' in this order"
        hint = (
            "say when, who and how, e.g. 'after 20 overs, if 3 or fewer down: all batsmen "
            "aggressive' or 'Warne bowls overs 1, 3, 5'"
        )
        if old is not None and old.hint and "too soon" in old.message:
            hint = old.hint  # what the order still needs, in the player's terms
        end = at + (len(word) if at < len(cl.text.rstrip()) else 1)
        span = Span(cl.number, cl.column(at), cl.column(end))
        st.errors.append(InvalidOrder(message, source_line=cl.raw, span=span, hint=hint))
        if _CONDITIONAL.search(cl.text):
            reason = f"{message}; {hint}"
            st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), reason))
        return True
    word = unknown[0]
    close = difflib.get_close_matches(word, [*ORDER_WORDS, *_STYLES], n=1, cutoff=0.75)
    at = cl.text.lower().find(word)
    span = Span(cl.number, cl.column(max(at, 0)), cl.column(max(at, 0) + len(word)))
    if nearest:
        message = f"I don't know what '{word}' means in an order, so this line is not acted on"
        hint = "without it I read: " + nearest.replace("\n", " / ")
    elif close:
        message = f"I don't know what '{word}' means in an order"
        hint = f"did you mean '{close[0]}'?"
    else:
        message = f"I don't know what '{word}' means in an order"
        hint = (
            "say it with the words of the guide's examples, e.g. 'after 20 overs, if 3 or "
            "fewer down: all batsmen aggressive' or 'Warne bowls overs 1, 3, 5'"
        )
    err = InvalidOrder(message, source_line=cl.raw, span=span, hint=hint)
    st.errors.append(err)
    if nearest or _CONDITIONAL.search(cl.text):
        # to the GM too: what pbm read without the word, for him to confirm or put right
        reason = f"{message}; {hint}"
        st.not_understood.append(
            NotUnderstood(cl.number, cl.raw.strip(), reason, (nearest,) if nearest else ())
        )
    return True


# "Anderson to bowl 4 overs", "Warne will bowl 10 overs max": a number of overs for a bowler.
_QUOTA = re.compile(
    r"^(?P<who>.+?)\s*:?\s+(?:(?:is\s+|are\s+)?to\s+bowl|will\s+bowl|should\s+bowl|can\s+bowl|"
    r"bowls?|gets?|takes?)?\s*(?P<n>\d{1,2})\s+(?:overs?|sets?)"
    r"(?:\s+(?:max(?:imum)?|at\s+most|only|in\s+all|each|apiece))?$",
    re.IGNORECASE,
)


def _quota_error(cl: CleanLine, own: NameBook) -> InvalidOrder | None:
    """A quota of overs ("Anderson to bowl 4 overs") is not an order the match can follow
    (the plan names each over), so it is refused with what to write instead."""
    m = _QUOTA.match(cl.text)
    if m is None:
        return None
    who = m.group("who")
    names = [n for n in re.split(r"\s*(?:,|&|\band\b)\s*", who) if n]
    if not names or not all(own.candidates(n) for n in names):
        return None
    count = m.group("n")
    return InvalidOrder(
        f"a number of overs for a bowler ('{count} overs') is not an order I can follow",
        source_line=cl.raw,
        span=Span(cl.number, cl.column(0), cl.column(len(cl.text))),
        hint=f"name the overs, e.g. '{names[0]} bowls overs 1, 3, 5, 7'",
    )


def _entries(
    low: Lowerer, entries: tuple[tuple[Ref, BattingStyle | None], ...]
) -> tuple[tuple[str, BattingStyle | None], ...]:
    """Batting-order entries resolved; names written without commas share the style given."""
    out: list[tuple[str, BattingStyle | None]] = []
    for ref, style in entries:
        names = low.many(ref)
        if len(names) == 1:  # most often
            out.append((names[0], style))
            continue
        out += [(n, style if i == len(names) - 1 else None) for i, n in enumerate(names)]
    return tuple(out)


def _plain_items(cl: CleanLine, p: Plain) -> list[Item]:
    end = len(cl.text)
    items = [Item(cl, "style", s, 0, end) for s in p.styles]
    items += [Item(cl, "all_style", s, 0, end) for s in p.all_styles]
    items += [Item(cl, "plan", pair, a, b) for pair, (a, b) in zip(p.plan, p.where, strict=True)]
    items += [Item(cl, "reviews", r, 0, end) for r in p.reviews]
    if p.openers:
        items.append(Item(cl, "openers", tuple(p.openers), 0, end))
    items += [Item(cl, "others_style", s, 0, end) for s in p.others_styles]
    items += [Item(cl, "except_style", x, 0, end) for x in p.except_styles]
    items += [Item(cl, "rest", r, 0, end) for r in p.rest]
    return items


def _section_line(
    cl: CleanLine,
    masked: str,
    found: dict[int, str],
    section: Item,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: _State,
    names: list[str],
) -> bool:
    """A line under a "batting order:" or "xi:" heading: names, one or more to a line."""
    if m := _BARE_NUMBER.match(cl.text):  # "1 Root": numbered without a full stop
        cl = replace(cl, text=cl.text[m.end() :], offset=cl.offset + m.end())
        masked = masked[m.end() :]
    parsed = _parse(cl, masked, found, "entries", names)
    if parsed is None:
        return False
    entries = parsed[0]
    if isinstance(entries, NumberError):
        return False
    st.section_lines[cl.number] = section.kind
    low = Lowerer(cl, own, opponent, fmt)
    resolved = _entries(low, entries)
    if section.kind == "xi" and any(s is not None for _, s in resolved):
        low.errors.append(
            low.invalid("a batting style belongs in the batting order, not the XI", 0, len(cl.text))
        )
    if low.errors:
        st.errors += low.errors
        section.ok = False
        return True
    if section.kind == "xi":
        section.value = (*section.value, *(n for n, _ in resolved))
    else:
        section.value = (*section.value, *resolved)
    return True


# "captain Root, keeper Wilson, toss bat": selection orders run together on one line.
_SELECTION = (
    r"(?:captain|capt\.?|skipper|keeper|wicketkeeper|wicket-keeper|wicket\s+keeper|wk|toss)\b"
)
_SELECTION_START = re.compile(_SELECTION, re.IGNORECASE)
_SELECTION_SPLIT = re.compile(r"\s*[,;]\s*(?=" + _SELECTION + ")", re.IGNORECASE)


def _split_selection(cl: CleanLine) -> list[CleanLine]:
    """The parts of a line of selection orders separated by commas, each as its own line."""
    if not _SELECTION_START.match(cl.text):
        return [cl]
    parts: list[CleanLine] = []
    start = 0
    for m in _SELECTION_SPLIT.finditer(cl.text):
        parts.append(replace(cl, text=cl.text[start : m.start()], offset=cl.offset + start))
        start = m.end()
    parts.append(replace(cl, text=cl.text[start:], offset=cl.offset + start))
    return parts


_BARE_NUMBER = re.compile(r"\d{1,2}\s+(?=[^\W\d_]|[\ue100-\ue8ff])")


def _number_error(cl: CleanLine, exc: NumberError) -> InvalidOrder:
    return InvalidOrder(
        str(exc),
        source_line=cl.raw,
        span=Span(cl.number, cl.column(exc.start), cl.column(max(exc.end, exc.start + 1))),
    )


def _result(st: _State) -> ParsedOrders:
    accepted = [i for i in st.items if i.ok]
    orders = build_orders(
        [i for i in accepted if i.kind not in ("clear", "fresh")], st.context.standing
    )
    echo = tuple(EchoLine(n, t) for n, t in echo_lines(accepted, st.context.standing))
    errors = tuple(
        sorted(st.errors, key=lambda e: (e.span.line, e.span.column) if e.span else (0, 0))
    )
    clears = tuple(dict.fromkeys(i.value for i in accepted if i.kind in ("clear", "fresh")))
    return ParsedOrders(
        orders,
        errors,
        echo,
        tuple(st.not_understood),
        chatter=tuple(sorted(st.chatter, key=lambda e: e.line)),
        clears=clears,
        line_parts=_line_parts(st),
    )


def _item_parts(item: Item) -> tuple[str, ...]:
    kind = item.kind
    if kind == "slot":
        return (f"name {item.value[0]}",)
    if kind == "reviews":
        return (f"{item.value[0]} reviews",)
    if kind in ("clear", "fresh"):
        return (_CLEAR_PART[item.value],)
    if kind == "placed":
        v = item.value
        styled = isinstance(v, BattingStyle) or (bool(v) and isinstance(v[0], BattingStyle))
        return ("styles",) if styled else ("batting order",)
    return (_KIND_PART[kind],) if kind in _KIND_PART else ()


_KIND_PART = {
    "team": "team name",
    "xi": "xi",
    "captain": "captain",
    "keeper": "wicketkeeper",
    "toss": "toss",
    "order": "batting order",
    "openers": "batting order",
    "position": "batting order",
    "style": "styles",
    "all_style": "styles",
    "others_style": "styles",
    "except_style": "styles",
    "plan": "bowling plan",
    "rest": "bowling plan",
    "rule": "conditional orders",
    "treat": "helper points",
    "boost": "helper points",
    "note": "notes",
}
_CLEAR_PART = {
    "rules": "conditional orders",
    "plan": "bowling plan",
    "order": "batting order",
    "styles": "styles",
    "helpers": "helper points",
    "notes": "notes",
}
# A line with an error and no order read from it is put to a part by its first word.
_FIRST_WORD_PART = (
    (re.compile(r"(?:captain|capt\.?|skipper)\b", re.I), "captain"),
    (re.compile(r"(?:wicket[\s-]?keeper|keeper|wk)\b", re.I), "wicketkeeper"),
    (re.compile(r"(?:xi|playing xi|eleven|selection|team\s*:)", re.I), "xi"),
    (re.compile(r"toss\b", re.I), "toss"),
    (re.compile(r"batting\s+order\b", re.I), "batting order"),
    (re.compile(r"(?:treat|heal|cure|boost|train|improve)\b", re.I), "helper points"),
    (re.compile(r"bowling\s+reviews?\b", re.I), "bowling reviews"),
    (re.compile(r"(?:batting\s+)?(?:reviews?|drs)\b", re.I), "batting reviews"),
    (
        re.compile(r"(?:if|when|whenever|once|after|from|at|with|unless|while|as soon as)\b", re.I),
        "conditional orders",
    ),
)


def _line_parts(st: _State) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Which parts of the orders each line spoke to (for merging a mail into what stands)."""
    parts: dict[int, list[str]] = {}
    for item in st.items:
        for p in _item_parts(item):
            parts.setdefault(item.line.number, []).append(p)
    for number, kind in st.section_lines.items():
        parts.setdefault(number, []).append(_KIND_PART[kind])
    for n in st.not_understood:
        parts.setdefault(n.line, []).append("conditional orders")
    for e in st.errors:
        if e.span is None or e.span.line in parts:
            continue
        text = _BULLET_STRIP.sub("", e.source_line or "").strip()
        for pattern, part in _FIRST_WORD_PART:
            if pattern.match(text):
                parts[e.span.line] = [part]
                break
    return tuple((n, tuple(dict.fromkeys(p))) for n, p in sorted(parts.items()))


_BULLET_STRIP = re.compile(r"^\s*(?:[-*•]+\s*|\d{1,3}[.):]\s+)?(?:please\s+)?", re.I)
