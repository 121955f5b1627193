"""Reading a whole email of orders: every line, every error, then the checks across lines."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from engine.errors import IllegalOrder, InvalidOrder, OrderError, Span
from engine.flungo.formats import FormatSpec
from engine.flungo.language import _context as leaning
from engine.flungo.language._bounds import MAIL_TEXT, MAX_UNKNOWN, clean, overspent
from engine.flungo.language._build import echo_lines
from engine.flungo.language._chatter import (
    forwarded_from,
    is_quoted,
    looks_like_chatter,
    names_an_order,
    number_words,
)
from engine.flungo.language._checks import check_items
from engine.flungo.language._clauses import Clauses, carries_meaning, style_only
from engine.flungo.language._coverage import unsaid_error
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
    RuleD,
    TossD,
    TreatD,
    XiD,
)
from engine.flungo.language._ellipsis import ellipsis_line
from engine.flungo.language._expand import expand_items, numbered_names, squad_numbers
from engine.flungo.language._forms import NEW_WHOLE, fresh_part, quota_error, split_selection
from engine.flungo.language._grammar import (
    ORDER_WORDS,
    keywords,
    near_miss,
)
from engine.flungo.language._items import Item
from engine.flungo.language._lines import (
    CleanLine,
    FreeText,
    clean_line,
    is_sign_off,
    mask_names,
    mask_near_miss,
    match_free_text,
)
from engine.flungo.language._lost import lost_name, refuse_lost
from engine.flungo.language._lower import Lowerer
from engine.flungo.language._meaning import name_runs, names_pattern, reword
from engine.flungo.language._model import (
    EchoLine,
    NotUnderstood,
    OrderContext,
    ParsedOrders,
    quoted,
)
from engine.flungo.language._names import NAME_WORD, NameBook
from engine.flungo.language._naming import apply_naming
from engine.flungo.language._nearest import nearest_line
from engine.flungo.language._nicknames import renamed
from engine.flungo.language._reader import MAIL_PARSED, Overspent, kept, one_line, spend
from engine.flungo.language._remarks import (
    CONDITION_START,
    read_past,
    read_without,
    their_error,
    without_remarks,
)
from engine.flungo.language._sections import entries, number_error, plain_items
from engine.flungo.language._shorthand import written_as
from engine.flungo.language._state import ReadState, result_of
from engine.flungo.language._tags import FOR_ANOTHER_MATCH, names_lead_tag, other_format
from engine.flungo.language._tries import Unparsed, forgiving_parse, parse, said_or_raise
from engine.flungo.language._typo_retry import typo_line
from engine.flungo.language._typos import known_words
from engine.flungo.language._unknown import (
    bare,
    builds_order,
    closed_filler,
    first_word_error,
    may_carry,
    opened,
    unknown_words,
    withouts,
)
from engine.flungo.orders import Rule
from engine.flungo.squad import Team

__all__ = ["Item", "read_orders"]

_PASSED = "passed over: '"
_CONDITIONAL = re.compile(
    r"\b(if|when|whenever|once|until|unless|after|as soon as|provided|but)\b", re.IGNORECASE
)


def read_orders(text: str, team: Team, fmt: FormatSpec, context: OrderContext) -> ParsedOrders:
    """Read every line of ``text`` (see :func:`engine.flungo.language.parse_orders`)."""
    st = ReadState(context=context)
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
        lines.append(clean(number, raw, st))
    fresh: dict[int, Item] = {}
    for k, cl in enumerate(lines):
        if cl is not None and (got := fresh_part(cl)) is not None:
            lines[k], part = got
            fresh[cl.number] = Item(lines[k] or cl, "fresh", part, 0, 0)
        elif cl is not None and (new := NEW_WHOLE.match(cl.text)) is not None:
            rest = cl.text[new.end() :]
            lines[k] = replace(cl, text=rest, plain=rest, offset=cl.offset + new.end())
    free: dict[int, FreeText] = {}
    for cl in lines:
        if cl is not None and (ft := match_free_text(cl.plain)) is not None:
            free[cl.number] = ft
    free.update(numbered_names(lines, free, team, keywords()))
    team = apply_naming(lines, free, team, st)
    st.team = team
    own = NameBook([p.name for p in team.players])
    opponent = (
        NameBook([p.name for p in context.opponent.players], "opposing player")
        if context.opponent is not None
        else None
    )
    all_names = list(own.names) + (list(opponent.names) if opponent else [])
    protect = _protect(tuple(all_names))  # once a mail: every pass of every line asks it
    known = known_words()
    section: Item | None = None
    signed_off = False
    left, unread = MAIL_PARSED, MAIL_TEXT
    for number, raw in enumerate(text.splitlines(), start=1):
        cl = lines[number - 1]
        if left < 0:
            break  # the mail's reading spent: said on the line where it ran out
        if is_sign_off(raw, lambda t: names_an_order(t, _protect(tuple(own.names)), keywords())):
            signed_off = True
        if cl is None:
            section = None
            continue
        if cl.number in free:
            section = None
            continue
        if cl.number in fresh:
            st.items.append(fresh[cl.number])
        unread -= len(cl.text)
        if unread < 0:  # the mail's text past what one mail may have read: said here
            st.errors.append(overspent(cl, Overspent("mail", 0), _after(lines, number)))
            break
        cl = renamed(cl, own, st.notes, protect, known)  # "Warnie", "gray": said
        mark = st.mark()
        read_one = functools.partial(
            _line,
            section=section,
            own=own,
            opponent=opponent,
            fmt=fmt,
            st=st,
            signed_off=signed_off,
            all_names=all_names,
            protect=protect,
        )
        with one_line(left) as work:
            try:
                ahead = read_one(cl)
                if len(st.errors) > mark[1] or len(st.not_understood) > mark[2]:
                    ahead = typo_line(cl, read_one, st, mark, ahead, own, opponent, protect)
                if len(st.errors) > mark[1]:  # a remark beside the order: read without it
                    ahead = without_remarks(
                        cl, read_one, st, mark, ahead, protect, fmt.overs, all_names
                    )
                # clauses that leave words out (refused, or two styles at once): put back
                ahead = ellipsis_line(cl, read_one, st, mark, ahead, _protect, all_names, fmt.overs)
                before = lines[number - 2 : number - 1]
                leaning.after_line(cl, read_one, st, mark, own, all_names, before)
                nearest_line(cl, read_one, st, mark, own, opponent, protect)  # never acted on
            except Overspent as over:  # a hostile line's search, cut short and said
                st.undo(mark)
                st.errors.append(overspent(cl, over, _after(lines, number)))
                ahead = (False, None)
                left = -1 if over.kind == "mail" else left
        left = left - work.parsed if left >= 0 else left
        if not ahead[0]:
            section = ahead[1]
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
    st.errors += leaning.resolve_changes(st.items, context, st.notes, st.errors)
    st.errors += expand_items(st.items, fmt, context)
    check_items(st.items, team, fmt, context, st.errors)
    # a plan read as its nearest legal plan blocks nothing: the plan mended stands
    wrong = {e.span.line for e in st.errors if e.span is not None and e.blocks}
    for item in st.items:
        if item.kind == "fresh" and item.line.number in wrong:
            item.ok = False  # its part is blocked: what stood before stands, whole
    return result_of(st)


def _after(lines: list[CleanLine | None], number: int) -> int:
    """How many lines to read follow line ``number``."""
    return sum(c is not None for c in lines[number:])


def _line(
    cl: CleanLine,
    section: Item | None,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    signed_off: bool,
    all_names: list[str],
    protect: frozenset[str] | None = None,
) -> tuple[bool, Item | None]:
    """Read one line: whether it was read under ``section`` (which then goes on), and the
    section it starts, if any; ``protect``: :func:`_protect` of ``all_names``, if known."""
    if protect is None:
        protect = _protect(tuple(all_names))
    if (their := their_error(cl, protect)) is not None:
        st.errors.append(their)  # "once they're 4 down": the other side's, not ours to wait on
        st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), their.message))
        return False, None
    masked, found = mask_names(cl.text, all_names)
    masked = squad_numbers(number_words(masked), found, own.names)
    if section is not None and _section_line(
        cl, masked, found, section, own, opponent, fmt, st, all_names
    ):
        return True, section
    if (rest := leaning.take_change(cl, masked, found, own, st, all_names)) is not None:
        if rest.line is None:  # "Rock in for Tom Smith": the XI is worked out at the end
            return False, None
        cl, masked, found = rest.line, rest.masked, rest.found  # the rest, read as usual
    mark = st.mark()
    head = _order_line(cl, masked, found, own, opponent, fmt, st, signed_off, all_names)
    if st.reads_whole(mark) and (
        gap := unsaid_error(cl, own, protect, st.items[mark[0] :], st.context.standing)
    ):
        st.undo(mark)  # a squad member the reading let go: refused, never dropped silently
        st.errors.append(gap)
        return False, None
    return False, head


def _order_line(
    cl: CleanLine,
    masked: str,
    found: dict[int, str],
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    signed_off: bool = False,
    names: list[str] | None = None,
    reworded: bool = False,
) -> Item | None:
    """Read one order line into items; returns the heading item if the line starts a section.

    A line the canonical words do not read is read for its meaning (:mod:`._meaning`), unless
    it is that reading already (``reworded``).
    """
    if len(parts := split_selection(cl)) > 1:
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
        said, masked, found = forgiving_parse(cl, masked, found, names or [])
        draft = said_or_raise(said)
        if isinstance(draft, PositionD) and not own.candidates(draft.ref.text):
            # "Batsmen 3 aggressive" is a near miss of "Batsman 3", not a place in the order
            near = mask_near_miss(masked, names or [], draft.ref.start, len(names or []))
            if near is not None:
                found = {**found, len(names or []): near[1]}
                said, masked, found = forgiving_parse(cl, near[0], found, names or [])
                draft = said_or_raise(said)
    except Unparsed as unparsed:
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
        exc = first_word_error(cl, own, unparsed.error())
        quota = quota_error(cl, own)
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
        st.errors.append(number_error(cl, exc))
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
        items.append(Item(cl, "order", entries(low, draft.entries), 0, end))
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
            items += plain_items(cl, result)
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
    st: ReadState,
    signed_off: bool,
    names: list[str],
    why: OrderError | None = None,
    unparsed: Unparsed | None = None,
) -> bool:
    """Read a line the canonical words do not read, for its meaning; False to let the
    canonical reader report it as it would (a misspelt order word with its "did you mean",
    a quota of overs)."""
    protect = _protect(tuple(names))
    from engine.flungo.language._plans import bowler_kinds, known_xi

    xi = known_xi(st.items, st.context.standing)
    kinds = bowler_kinds(st.team.players, xi) if st.team is not None else None
    rw = reword(opened(cl.text), protect, fmt.overs, tuple(names), kinds)
    if not rw.texts:
        # nothing in it carries an order: cheering, thanks, a remark; it costs nothing
        st.chatter.append(EchoLine(cl.number, cl.raw.strip()))
        return True
    if other_format(rw.texts[0], fmt.overs):  # "T20:" in a 50-over match: not this match's
        return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, None)
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
    if len(good) < len(results) and len(rw.texts) == 1:
        found = _without_asides(cl, rw.texts[0], own, opponent, fmt, st, names, protect)
        found = found or _in_parts(cl, rw.texts[0], own, opponent, fmt, st, names)
        if found:
            results = good = found
            if len({_echo(s, st) for _, s in found}) > 1:
                st.not_understood.append(
                    NotUnderstood(
                        cl.number,
                        cl.raw.strip(),
                        "this can be read two ways, so it is not acted on",
                        tuple(dict.fromkeys(_echo(s, st) for _, s in found)),
                    )
                )
                return True
    if good and len(good) == len(results):
        sub = good[0][1]
        notes = read_past(cl, rw, good[0][0], own, opponent, protect, fmt.overs)
        said = tuple(n.text for n in notes)
        lost = lost_name(cl.text, _echo(sub, st), protect, said)
        skipped = [n[14:].rstrip("'").removesuffix(" ...") for n in said if n[:14] == _PASSED]
        if cond := [c for c in skipped if CONDITION_START.match(c)]:  # a condition, not a remark
            lost = (cond[0], max(cl.text.lower().find(cond[0].lower()), 0), True)
        if lost is not None and refuse_lost(cl, lost, _echo(sub, st), st):
            return True
        st.items += sub.items
        st.not_understood += sub.not_understood
        st.chatter += sub.chatter
        st.notes += notes
        return True
    if signed_off or (cl.chatter and not name_runs(rw.texts[0], protect, tuple(names))):
        return False  # a greeting or a signature with no squad member in it stays chatter
    if len(rw.texts) == 1 and (passed := _passing(cl, rw.texts[0], own, opponent, fmt, st, names)):
        st.items += passed.items
        st.notes += passed.notes
        return True
    if not any(builds_order(t, protect) for t in rw.texts):
        # no squad member, style, order word, or overs with a condition: a remark
        st.chatter.append(EchoLine(cl.number, cl.raw.strip()))
        return True
    if cl.chatter:
        # a greeting before a squad member's name ("Greetings, and once more: Stokes opens
        # with Root"): what follows the greeting may be an order, so never let it pass
        return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, why)
    old = first_word_error(cl, own, unparsed.error()) if unparsed is not None else why
    if old is not None and (
        (old.hint or "").startswith("did you mean") or quota_error(cl, own) is not None
    ):
        return False  # a misspelt order word, a quota: the canonical reader's word says more
    if unknown_words(rw.texts[0], own, opponent, protect):
        return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, why)
    if old is not None and _names_word(old, cl) and not names_lead_tag(old.message, cl.text):
        return False  # the canonical reader's own error names the word, caret under it
    return _refuse(cl, rw.texts[0], own, opponent, fmt, st, names, protect, why, old)


def _without_asides(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    names: list[str],
    protect: frozenset[str],
) -> list[tuple[str, ReadState]]:
    """The readings of ``text`` with its asides left out (clauses that carry no order, see
    :mod:`._clauses`): those with the fewest left out that read, or none. More than one
    reading there is a question, never a choice."""
    for texts in Clauses(text).drop_sets(names_pattern(protect)):
        read = [(t, _read_words(cl, t, own, opponent, fmt, st, names)) for t in texts]
        good = [(t, s) for t, s in read if not s.errors and (s.items or s.not_understood)]
        if good:
            return good
    return []


# Where one order ends and another begins in a line: a full stop or a semicolon, or a comma
# before a new trigger ("Root defensive, if he gets out, Tom Smith defensive").
_COMMAS = re.compile(r"\s*,\s*|\s+and\s+")  # "Stokes captains, Wilson keeps": if each is whole
_PARTS = re.compile(r"\s*;\s*|(?<=\w)\.\s+|,\s*(?=(?:if|when|once|unless|after|at\s+drinks)\b)")


def _in_parts(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    names: list[str],
) -> list[tuple[str, ReadState]]:
    """``text`` read as two or more orders, one after another: all of them, each read
    whole and plainly (no question, no error), or none."""
    for cut in (_PARTS, _COMMAS):
        parts = [p for p in cut.split(text) if p.strip()]
        if not all(carries_meaning(p) for p in parts) or any(style_only(p) for p in parts):
            # a part with nothing in it that makes an order ("Stokes", "xi: Root"), or a
            # style alone beside another order: it is that order's, never everyone's
            continue
        whole = ReadState(team=st.team, context=st.context)
        for part in parts if len(parts) > 1 else ():
            sub = _read_words(cl, part, own, opponent, fmt, st, names)
            if sub.errors or sub.not_understood or not sub.items:
                break
            whole.items += sub.items
        else:
            if whole.items:
                return [(text, whole)]
    return []


def _passing(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    names: list[str],
) -> ReadState | None:
    """``text`` read with its unknown words let pass (:mod:`._unknown`), and if need be
    its asides left out (fewest first): the one reading of what is left, whole; None where
    a word left may carry meaning, or nothing reads, or two readings do."""
    protect = _protect(tuple(names))
    said = Clauses(text).without_reasons()
    unknown = unknown_words(said, own, opponent, protect)
    if len(unknown) > MAX_UNKNOWN:  # each may carry meaning, and each is a search of the line
        raise Overspent("unknown words", len(unknown))
    content = [w for w in unknown if not closed_filler(w, said)]  # a pronoun passes unsaid
    if (not unknown and said == text) or any(may_carry(w, said, protect, cl.raw) for w in content):
        return None
    text = said
    others = frozenset(unknown)
    for level in [[text], *Clauses(text).drop_sets(names_pattern(protect), others=others)]:
        found: list[tuple[str, ReadState]] = []
        for t in level:
            rest = bare(t, unknown)
            sub = _read_words(cl, rest, own, opponent, fmt, st, names)
            if not sub.errors and not sub.not_understood and sub.items:
                found.append((rest, sub))
            elif rest != t and (parts := _in_parts(cl, rest, own, opponent, fmt, st, names)):
                found += parts
        if found and len({_echo(s, st) for _, s in found}) == 1:
            if content:  # said on its line, so that the player sees what was left out
                found[0][1].notes.append(EchoLine(cl.number, read_without(cl.raw, content)))
            return found[0][1]
        if found:
            return None
    return None


def _names_word(err: OrderError, cl: CleanLine) -> bool:
    """Whether ``err`` quotes a word the player wrote in this line."""
    low = cl.raw.lower()
    return any(q.lower() in low for q in quoted(err.message))


@kept(maxsize=64)
def _protect(names: tuple[str, ...]) -> frozenset[str]:
    """The words of the squads' names that are no word of the orders ("ant", "dec")."""
    words = keywords()
    return frozenset(
        w for n in names for w in NAME_WORD.findall(n.lower()) if w not in words and not w.isdigit()
    )


def _read_words(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    names: list[str],
) -> ReadState:
    """``text`` (the line in canonical words) read as the player's line ``cl``, apart."""
    spend(readings=1)
    sub = ReadState(team=st.team, context=st.context)
    cleaned = clean_line(cl.number, text)  # as the player's own line is cleaned
    if cleaned is None:
        return sub
    said = cl.said or (cl.column(0), cl.column(max(len(cl.text), 1)))
    line = replace(cleaned, raw=cl.raw, offset=cl.offset, chatter=False, said=said)
    masked, found = mask_names(cleaned.text, names)  # as the line is read: cleaned
    masked = squad_numbers(number_words(masked), found, own.names)
    _order_line(line, masked, found, own, opponent, fmt, sub, False, names, reworded=True)
    return sub


def _echo(sub: ReadState, st: ReadState) -> str:
    return "\n".join(t for _, t in echo_lines(sub.items, st.context.standing))


_STYLES = ("defensive", "normal", "aggressive", "wahoo")
_UNKNOWN_WORD = re.compile(r"(?<![\w'])[^\W\d_][\w']*")


def _refuse(
    cl: CleanLine,
    text: str,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    names: list[str],
    protect: frozenset[str],
    why: OrderError | None,
    old: OrderError | None = None,
) -> bool:
    """A line with meaning pbm cannot read: the word it does not know, with the caret under
    it and what pbm reads without it; or, when every word is known, where it breaks."""
    if tag := other_format(text, fmt.overs):
        at = max(cl.text.lower().find(tag), 0)
        span = Span(cl.number, cl.column(at), cl.column(at + len(tag)))
        message = f"'{tag}' {FOR_ANOTHER_MATCH}: this one is {fmt.title}"
        hint = "send it with that match's orders"
        st.errors.append(InvalidOrder(message, source_line=cl.raw, span=span, hint=hint))
        return True
    unknown = unknown_words(text, own, opponent, protect)
    unknown.sort(key=lambda w: closed_filler(w, text))  # a pronoun is never the word named
    nearest = ""
    for without in withouts(text, unknown):
        sub = _read_words(cl, without, own, opponent, fmt, st, names)
        if not sub.errors and sub.items:
            nearest = _echo(sub, st)
            break
    if not unknown and why is not None:
        st.errors.append(why)
        if _CONDITIONAL.search(cl.text):
            st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), why.message))
        return True
    if not unknown:
        # every word is known, but not in this order: the word where the reading stops
        sub = _read_words(cl, text, own, opponent, fmt, st, names)
        err = next((e for e in sub.errors if isinstance(e, InvalidOrder)), None)
        said = quoted(err.message) if err is not None else []
        word = said[0] if said else ""
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
    word = written_as(unknown[0], cl.text)  # "~", not the "approx" it was read as
    close = near_miss(word, [*ORDER_WORDS, *_STYLES], 0.75)
    at = cl.text.lower().find(word)
    span = Span(cl.number, cl.column(max(at, 0)), cl.column(max(at, 0) + len(word)))
    if nearest:
        message = f"I don't know what '{word}' means in an order, so this line is not acted on"
        hint = "without it, pbm reads: " + nearest.replace("\n", " / ")
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


def _section_line(
    cl: CleanLine,
    masked: str,
    found: dict[int, str],
    section: Item,
    own: NameBook,
    opponent: NameBook | None,
    fmt: FormatSpec,
    st: ReadState,
    names: list[str],
) -> bool:
    """A line under a "batting order:" or "xi:" heading: names, one or more to a line."""
    if m := _BARE_NUMBER.match(cl.text):  # "1 Root": numbered without a full stop
        cl = replace(cl, text=cl.text[m.end() :], offset=cl.offset + m.end())
        masked = masked[m.end() :]
    parsed = parse(cl, masked, found, "entries", names)
    if parsed is None:
        return False
    said = parsed[0]
    if isinstance(said, NumberError):
        return False
    st.section_lines[cl.number] = section.kind
    low = Lowerer(cl, own, opponent, fmt)
    resolved = entries(low, said)
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


_BARE_NUMBER = re.compile(r"\d{1,2}\s+(?=[^\W\d_]|[\ue100-\ue8ff])")
