"""A lean driver for lark's LALR tables: the trees lark's own parser gives, in less time.

lark's LALR parser spends most of a line's time in generality this grammar does not use
(lexer threads, line counting, a parser-state object, error recovery hooks). This driver
reads the same tables, runs the same contextual lexer regexes and builds the tree with the
same callbacks' shapes, so a line that parses gives the very tree ``Lark.parse`` gives. For a
line that does not parse the driver only says where it breaks, as lark would; lark's own
exception (what it expected there), which error messages are made from, is asked of lark
only for a line that is reported.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from functools import partial
from typing import Any

from lark import Lark, Token, Tree
from lark.lexer import ContextualLexer
from lark.parse_tree_builder import (
    ChildFilterLALR_NoPlaceholders,
    ExpandSingleChild,
    PropagatePositions,
)
from lark.parsers.lalr_analysis import Shift
from lark.tree import Meta

__all__ = ["Apply", "FastParser", "Span", "meta", "span"]

_new_str = str.__new__
_new_tree = object.__new__


class _Meta(Meta):
    """A node's place in its one-line text, as lark's ``propagate_positions`` sets it.

    Every line is one line, so the line numbers are 1 and a column is its index plus one.
    """

    __slots__ = ("container_end_pos", "container_start_pos", "end_pos", "start_pos")
    container_start_pos: int
    container_end_pos: int
    line = end_line = container_line = container_end_line = 1

    def __init__(self) -> None:
        self.empty = True

    @property
    def column(self) -> int:  # type: ignore[override]
        return self.start_pos + 1

    @property
    def end_column(self) -> int:  # type: ignore[override]
        return self.end_pos + 1

    @property
    def container_column(self) -> int:
        return self.container_start_pos + 1

    @property
    def container_end_column(self) -> int:
        return self.container_end_pos + 1


def meta(span: Span) -> Meta:
    """The ``meta`` ``parse``'s tree gives a node of this span (for a node ``read`` makes)."""
    m = _Meta()
    if span is not None:
        m.start_pos = m.container_start_pos = span[0]
        m.end_pos = m.container_end_pos = span[1]
        m.empty = False
    return m


class _Build:
    """lark's tree-building callback for one rule, done in one call: the children kept (a
    ``_rule`` child's spliced in), a ``?rule`` of one child replaced by it, and the node's
    place from its first and last children with one (``propagate_positions``)."""

    __slots__ = ("expand1", "include", "name")

    def __init__(self, name: str, include: tuple[tuple[int, bool], ...] | None, expand1: bool):
        self.name, self.include, self.expand1 = name, include, expand1

    def __call__(self, children: list[Any]) -> Any:
        node: Any
        meta: Any
        include = self.include
        if include is None:
            kept = children
        else:
            kept = []
            for i, expand in include:
                if not expand:
                    kept.append(children[i])
                elif kept:
                    kept += children[i].children
                else:  # lark reuses the list of a first inlined child: so do we
                    kept = children[i].children
        fresh = not (self.expand1 and len(kept) == 1)
        if fresh:
            node = _new_tree(Tree)
            node.data = self.name
            node.children = kept
        else:
            node = kept[0]
            if type(node) is not Tree:
                return node
        first = last = None
        for c in children:
            if type(c) is Tree:
                m: Any = c._meta
                if m is not None and not m.empty:
                    first = m.container_start_pos
                    break
            else:
                first = c.start_pos
                break
        for c in reversed(children):
            if type(c) is Tree:
                m = c._meta
                if m is not None and not m.empty:
                    last = m.container_end_pos
                    break
            else:
                last = c.end_pos
                break
        if fresh:
            meta = node._meta = _Meta()
            if first is not None:
                meta.start_pos = meta.container_start_pos = first
                meta.empty = False
            if last is not None:
                meta.end_pos = meta.container_end_pos = last
                meta.empty = False
            return node
        meta = node._meta
        if meta is None:
            meta = node._meta = _Meta()
        # a node kept in its parent's place (``?rule``) keeps its own start and end
        if first is not None:
            if getattr(meta, "start_pos", None) is None:
                meta.start_pos = first
                meta.empty = False
            meta.container_start_pos = first
        if last is not None:
            if getattr(meta, "end_pos", None) is None:
                meta.end_pos = last
                meta.empty = False
            meta.container_end_pos = last
        return node


def _builder(callback: Any) -> Callable[[list[Any]], Any]:
    """The one-call form of lark's callback for a rule; lark's own where it is not one of
    the shapes this grammar's options give."""
    if type(callback) is not PropagatePositions or callback.node_filter is not None:
        return callback  # type: ignore[no-any-return]
    inner = callback.node_builder
    include = None
    if type(inner) is ChildFilterLALR_NoPlaceholders:
        include = tuple((i, bool(x)) for i, x in inner.to_include)
        inner = inner.node_builder
    expand1 = type(inner) is ExpandSingleChild
    if expand1:
        inner = inner.node_builder
    if not (type(inner) is partial and inner.func is Tree and len(inner.args) == 1):
        return callback
    if inner.keywords:
        return callback
    return _Build(inner.args[0], include, expand1)


# Where a rule's node lies in the line: (start, end) of its first and last children with a
# place, or None for a node of no tokens (lark's ``meta.empty``).
Span = tuple[int, int] | None
# What :meth:`FastParser.read` makes of a rule's node: (rule name, children kept, its place)
# in, the node's value out. A place is given as :func:`span` reads it, only when asked.
Apply = Callable[[str, list[Any], Any], Any]


def span(place: Any) -> Span:
    """The span of a place :meth:`FastParser.read` gives: a token, or the places of a node's
    children (worked out only for the few nodes that use theirs: most never do)."""
    first, last = _edge(place, 0), _edge(place, -1)
    return None if first is None or last is None else (first, last)


def _edge(place: Any, end: int) -> int | None:
    """Where the first (``end=0``) or last (``end=-1``) token under a place starts or ends.

    Depth first without recursion: a list rule nests a place in its own for each item, so a
    long line of a thousand names would be a thousand calls deep.
    """
    todo = [place]
    while todo:
        top = todo.pop()
        if type(top) is not list:
            return top.start_pos if end == 0 else top.end_pos  # type: ignore[no-any-return]
        todo += reversed(top) if end == 0 else top  # the nearest child comes off first
    return None


# A ``_rule``'s children, to be put in its parent's place (lark inlines such a rule), with
# each child's place (see :meth:`FastParser.read`): (values, places), a plain tuple (made for
# a fifth of the rules a line reduces). Only a parent whose kept children say "expand" at its
# place is given one, and it takes it apart.
_Splice = tuple[list[Any], list[Any]]


# How many first characters, and words, each state's lexer remembers what to do with.
_REMEMBERED = 2048
_BLANKS = frozenset(" \t\xa0")
_BLANK_RUN = "[ \t\xa0]+"  # the grammar's %ignore, as lark writes its regex
_BLANK = re.compile(_BLANK_RUN)


class _StateLexer:
    """One of the contextual lexer's scanners: its regexes, and the words it retypes.

    lark's scanner is one regex, an alternation of every terminal the state takes, tried in
    order; most alternatives are words that cannot start with the character at hand. So for
    each character seen, the alternation is cut to the terminals that could start there (a
    word whose first letter matches it, as ``re`` compares it, and every terminal that is a
    regex), in the same order: the first alternative to match is the same one.
    """

    __slots__ = ("alternations", "blank", "by_char", "flags", "ignore", "retype", "terminals")

    def __init__(self, basic: Any) -> None:
        scanner = basic.scanner  # lark builds it on first use
        self.terminals = tuple(scanner.terminals)
        self.flags = scanner.g_regex_flags
        self.by_char: dict[str, tuple[re.Pattern[str], ...]] = {}
        self.alternations: dict[str, tuple[re.Pattern[str], ...]] = {}  # a retype's regexes
        self.blank: bool | None = None  # see blank_ignored
        self.ignore = frozenset(basic.ignore_types)
        # a NAMEWORD that spells a keyword of this state ("is") becomes that keyword, as
        # lark's UnlessCallback has it: (the keywords, in its order; the answers so far)
        self.retype: dict[str, tuple[tuple[Any, ...], dict[str, str | None]]] = {
            name: (tuple(cb.scanner.terminals), {}) for name, cb in basic.callback.items()
        }

    def __getstate__(self) -> dict[str, Any]:
        # what was learnt while parsing is not kept (it is re-learnt in a few lines)
        return {
            "terminals": self.terminals,
            "flags": self.flags,
            "ignore": self.ignore,
            "retype": {k: (v[0], {}) for k, v in self.retype.items()},
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.terminals, self.flags = state["terminals"], state["flags"]
        self.ignore, self.retype = state["ignore"], state["retype"]
        self.by_char = {}
        self.alternations = {}
        self.blank = None

    def retyped(self, kind: str, value: str) -> str | None:
        """The keyword a ``kind`` token spelling ``value`` is, if any."""
        terms, seen = self.retype[kind]
        if value not in seen:
            if len(seen) >= _REMEMBERED:  # every name ever written is no memory to keep
                seen.clear()
            found = None
            regexes = self.alternations.get(kind)
            if regexes is None:
                regexes = self.alternations[kind] = _alternation(terms, self.flags)
            for mre in regexes:
                m = mre.fullmatch(value)
                if m is not None:
                    found = m.lastgroup
                    break
            seen[value] = found
        return seen[value]

    def blank_ignored(self) -> bool:
        """Whether a run of blanks is, in this state, always the ignored blank and nothing else:
        the state ignores the grammar's blank run and no other terminal can start with a blank
        (a word's first letter; a regex tried at a blank and at a blank before the characters
        a line holds). Then the scanner steps over blanks without trying the state's regexes,
        a third of its tries (every word has one after it), and finds what it found before."""
        if self.blank is None:
            ignored = any(
                t.name in self.ignore and t.pattern.to_regexp() == _BLANK_RUN
                for t in self.terminals
            )
            self.blank = ignored and not any(
                _may_start_blank(t, self.flags) for t in self.terminals if t.name not in self.ignore
            )
        return self.blank

    def regexes(self, char: str) -> tuple[re.Pattern[str], ...]:
        """The alternation(s) for a token that starts with ``char``."""
        found = self.by_char.get(char)
        if found is None:
            terms = tuple(t for t in self.terminals if _may_start(t, char))
            found = _alternation(terms, self.flags)
            if len(self.by_char) < _REMEMBERED:  # a mail of odd characters cannot grow it
                self.by_char[char] = found
        return found


def _may_start(term: Any, char: str) -> bool:
    pattern = term.pattern
    if pattern.type != "str" or not pattern.value or not set(pattern.flags) <= {"i"}:
        return True  # a regex: kept, tried where lark would try it
    first: str = pattern.value[0]
    caseless = "i" in pattern.flags
    if first.isascii() and char.isascii():  # re's case rules for two ASCII characters
        return first.lower() == char.lower() if caseless else first == char
    flags = re.IGNORECASE if caseless else 0
    return re.fullmatch(re.escape(first), char, flags) is not None


def _may_start_blank(term: Any, flags: int) -> bool:
    pattern = term.pattern
    if pattern.type == "str":
        return pattern.value[:1] in _BLANKS
    regex = re.compile(pattern.to_regexp(), flags)
    probes = ("", "a", "A", "1", " ", ",", ".", "-", "'", "\ue100", "\ue000")
    return any(regex.match(b + p) for b in _BLANKS for p in probes)


def _alternation(terms: tuple[Any, ...], flags: int) -> tuple[re.Pattern[str], ...]:
    """lark's ``Scanner`` regexes for these terminals (in groups of 100: ``re``'s limit)."""
    out = []
    for i in range(0, len(terms), 100):
        pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms[i : i + 100])
        out.append(re.compile(pattern, flags))
    return tuple(out)


class FastParser:
    """Parse a one-line text with ``lark``'s tables (made from a built parser, then kept:
    it pickles without the parser it was made from)."""

    def __init__(self, lark: Lark) -> None:
        front = lark.parser
        lexer = front.lexer
        if not isinstance(lexer, ContextualLexer):  # pragma: no cover - build_parser's choice
            raise TypeError("the fast driver reads a contextual lexer")
        table = front.parser._parse_table
        callbacks = front.parser.parser.callbacks
        self._start = dict(table.start_states)
        self._end = dict(table.end_states)
        by_basic: dict[int, _StateLexer] = {}
        self._lexers: dict[Any, _StateLexer] = {}
        for state, basic in lexer.lexers.items():
            if id(basic) not in by_basic:
                by_basic[id(basic)] = _StateLexer(basic)
            self._lexers[state] = by_basic[id(basic)]
        # Each state's actions, kept packed: a shared tuple of symbols and, in one array,
        # 2 * new state for a shift or 2 * rule + 1 for a reduce. A state's row is unpacked
        # the first time the parser is in it: a process needs a few hundred of 4,000-odd, and
        # loading 180,000 entries would cost more than all the mail it reads in a while.
        self._rules: list[tuple[int, Any, str]] = []
        rule_index: dict[Any, int] = {}
        keysets: dict[tuple[str, ...], int] = {}
        actions = array("q")
        self._rows: dict[Any, tuple[int, int]] = {}
        for state, row in table.states.items():
            # plain strings as keys: lark's Token compares in Python, a str in C
            keys = tuple(str(symbol) for symbol in row)
            self._rows[state] = (keysets.setdefault(keys, len(keysets)), len(actions))
            for action, arg in row.values():
                if action is Shift:
                    actions.append(2 * arg)
                    continue
                if arg not in rule_index:
                    rule_index[arg] = len(self._rules)
                    build = _builder(callbacks[arg])
                    self._rules.append((len(arg.expansion), build, str(arg.origin.name)))
                actions.append(2 * rule_index[arg] + 1)
        self._keysets = list(keysets)
        self._actions = actions
        self._token_callbacks = {k: v for k, v in callbacks.items() if isinstance(k, str)}
        self._states: dict[Any, dict[str, tuple[Any, Any]]] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_states"] = {}  # unpacked rows are unpacked again
        state.pop("_read_rows", None)
        return state

    def _row(self, state: Any) -> dict[str, tuple[Any, Any]]:
        """A state's actions: symbol -> (new state, None) or (None, (size, build, goto))."""
        keyset, at = self._rows[state]
        keys = self._keysets[keyset]
        row = {}
        rules = self._rules
        for key, code in zip(keys, self._actions[at : at + len(keys)], strict=True):
            row[key] = (code >> 1, None) if code & 1 == 0 else (None, rules[code >> 1])
        self._states[state] = row
        return row

    def parse(self, text: str, start: str) -> Tree[Token] | int:
        """The tree ``Lark.parse(text, start=start)`` gives, or where lark's parse would break:
        the index of the token it would not take (the length of the text at its end)."""
        if "\n" in text:
            raise ValueError("one line at a time")  # a token's line is always 1 here
        states = self._states
        lexers = self._lexers
        token_callbacks = self._token_callbacks
        end_state = self._end[start]
        state_stack = [self._start[start]]
        value_stack: list[Any] = []
        pos = 0
        n = len(text)
        while True:
            state = state_stack[-1]
            # the next token, read with the regexes of the state the parser is in
            got = _next_token(lexers[state], text, pos)
            if isinstance(got, int):
                return got
            kind, token, begin, pos = got
            row = states.get(state) or self._row(state)
            while True:
                act = row.get(kind)
                if act is None:
                    return n if token is None else begin
                shift, rule = act
                if shift is not None:
                    if token is None:  # pragma: no cover - lark never shifts the end
                        raise AssertionError("shifted the end of the line")
                    state_stack.append(shift)
                    cb = token_callbacks.get(kind)
                    value_stack.append(token if cb is None else cb(token))
                    break
                size, callback, origin = rule
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                node = callback(children)
                below = state_stack[-1]
                goto = (states.get(below) or self._row(below))[origin][0]
                state_stack.append(goto)
                value_stack.append(node)
                if token is None and goto == end_state:
                    tree: Tree[Token] = value_stack[-1]
                    return tree
                row = states.get(goto) or self._row(goto)

    def _read_row(self, state: Any) -> dict[str, Any]:
        """A state's actions as :meth:`read` takes them: symbol -> the new state (an int)
        for a shift or a goto, or for a reduce (size, children kept, ``?rule``, name,
        inlined, goto symbol), from the rule's tree-building callback."""
        rows = self._unpacked_rows()
        row: dict[str, Any] = {}
        for key, (shift, rule) in (self._states.get(state) or self._row(state)).items():
            if shift is not None:
                row[key] = shift
                continue
            size, build, origin = rule
            if type(build) is not _Build:  # pragma: no cover - _builder takes every rule here
                raise TypeError(f"rule {origin} builds its node in a way read() cannot")
            name = str(build.name)
            row[key] = (size, build.include, build.expand1, name, name[0] == "_", origin)
        rows[state] = row
        return row

    def _unpacked_rows(self) -> list[dict[str, Any] | None]:
        """:meth:`read`'s rows so far, by state (a list: the states are 0 to n - 1, and an
        index is quicker than a look-up, which the parser does a few times a token)."""
        rows: list[dict[str, Any] | None] | None = self.__dict__.get("_read_rows")
        if rows is None:
            if set(self._rows) != set(range(len(self._rows))):  # pragma: no cover - lark's
                raise TypeError("the parser's states are not numbered 0 to n - 1")
            rows = self.__dict__["_read_rows"] = [None] * len(self._rows)
        return rows

    def read(self, text: str, start: str, apply: Apply) -> Any:
        """What ``apply`` makes of the line's tree, or where the parse breaks (as ``parse``).

        The tree is never built: each rule's node is handed to ``apply`` when the parser
        reduces it, with the children lark's tree would keep (its ``_rule`` children spliced
        in, a ``?rule`` of one child replaced by that child without a call) and the node's
        place, whose :func:`span` is what ``parse``'s tree has in ``meta``. Reductions come
        in the order of a bottom-up, left-to-right walk of the tree, as a transformer visits
        it. Tokens are ``parse``'s tokens. A place is kept beside each value: the token
        itself for a token, else the places of the node's children (a ``?rule`` kept in a
        parent's place spans what the parent spans; a token kept so keeps its own).
        """
        if "\n" in text:
            raise ValueError("one line at a time")
        if self._token_callbacks:  # pragma: no cover - the grammar has none
            raise TypeError("read() does not call token callbacks")
        rows = self._unpacked_rows()
        lexers = self._lexers
        end_state = self._end[start]
        # One stack, three to an entry: a value, its place (a token, or a node's children's
        # places) and the state after it; the first state alone at the bottom.
        stack: list[Any] = [self._start[start]]
        pos = 0
        n = len(text)
        while True:
            state = stack[-1]
            # the next token, read with the regexes of the state the parser is in: what
            # _next_token does, written out here (a call and a tuple a token, in the loop
            # that every line of every mail goes through)
            lx = lexers[state]
            while True:
                if pos >= n:
                    kind, token, begin = "$END", None, pos
                    break
                char = text[pos]
                if char in _BLANKS and (lx.blank or (lx.blank is None and lx.blank_ignored())):
                    pos += 1
                    if pos < n and text[pos] in _BLANKS:  # a run (most blanks are one space)
                        pos = _BLANK.match(text, pos).end()  # type: ignore[union-attr]
                    continue
                for mre in lx.by_char.get(char) or lx.regexes(char):
                    m = mre.match(text, pos)
                    if m is not None:
                        break
                else:
                    return pos
                kind = m.lastgroup  # type: ignore[assignment]  # (every alternative is named)
                begin, pos = pos, m.end()
                if kind in lx.ignore:
                    continue
                value = m.group()
                if kind in lx.retype:
                    kind = lx.retyped(kind, value) or kind
                token = _new_str(Token, value)
                token.type = kind
                token.value = value
                token.start_pos = begin
                token.line = token.end_line = 1
                token.column = begin + 1
                token.end_column = pos + 1
                token.end_pos = pos
                break
            row = rows[state] or self._read_row(state)
            while True:
                act = row.get(kind)
                if act is None:
                    return n if token is None else begin
                if type(act) is int:
                    stack += (token, token, act)
                    break
                size, include, expand1, name, inline, origin = act
                if size == 1:  # most rules (no slices to make)
                    children, places = [stack[-3]], [stack[-2]]
                    del stack[-3:]
                elif size:
                    top = stack[-3 * size :]
                    del stack[-3 * size :]
                    children, places = top[::3], top[1::3]
                else:
                    children, places = [], []
                place: Any = places  # a node's place: its children's
                if include is None:
                    kept, kept_places = children, places
                else:
                    kept, kept_places = [], []
                    for i, expand in include:
                        if not expand:
                            kept.append(children[i])
                            kept_places.append(places[i])
                        elif kept:
                            kept += children[i][0]
                            kept_places += children[i][1]
                        else:  # a list rule's list grows in place, as lark's does
                            kept = children[i][0]
                            kept_places = children[i][1].copy()
                if inline:  # spliced into its parent (whose include says so): see _Splice
                    node: Any = (kept, kept_places)
                elif expand1 and len(kept) == 1:
                    node = kept[0]
                    if type(kept_places[0]) is not list:
                        place = kept_places[0]  # a token keeps its own place
                else:
                    node = apply(name, kept, place)
                below = stack[-1]
                goto = (rows[below] or self._read_row(below))[origin]
                stack += (node, place, goto)
                if token is None and goto == end_state:
                    return node
                row = rows[goto] or self._read_row(goto)


def _next_token(lx: Any, text: str, pos: int) -> tuple[Any, Token | None, int, int] | int:
    """The next token of ``text`` from ``pos`` with the lexer ``lx`` of the parser's state:
    (its kind, the token, where it begins, where it ends), the kind ``$END`` and no token at
    the end of the line, or the index where no terminal of the state matches."""
    n = len(text)
    while pos < n:
        char = text[pos]
        if char in _BLANKS and (lx.blank or (lx.blank is None and lx.blank_ignored())):
            pos += 1
            if pos < n and text[pos] in _BLANKS:  # a run (most blanks are one space)
                pos = _BLANK.match(text, pos).end()  # type: ignore[union-attr]
            continue
        regexes = lx.by_char.get(char) or lx.regexes(char)
        for mre in regexes:
            m = mre.match(text, pos)
            if m is not None:
                break
        else:
            return pos
        kind: Any = m.lastgroup  # every alternative is a named group
        begin, pos = pos, m.end()
        if kind in lx.ignore:
            continue
        value = m.group()
        if kind in lx.retype:
            kind = lx.retyped(kind, value) or kind
        token = _new_str(Token, value)
        token.type = kind
        token.value = value
        token.start_pos = begin
        token.line = token.end_line = 1
        token.column = begin + 1
        token.end_column = pos + 1
        token.end_pos = pos
        return kind, token, begin, pos
    return "$END", None, pos, pos
