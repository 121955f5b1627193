"""Orders as players write them (issue 10): sentences read by composition, no silent misread,
chatter that costs nothing, names as people type them, and merging a mail by part."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.language import OrderContext, ParsedOrders, canonical, parse_orders
from engine.flungo.merge import merge_orders
from engine.flungo.orders import (
    BattingStyle,
    Comparison,
    Condition,
    MatchOrders,
    Orders,
    Quantity,
    SquadNaming,
    Trigger,
    TriggerKind,
)
from engine.flungo.rules import RuleBook, Situation, fresh_snapshot
from engine.flungo.squad import Team
from tests.engine.orders.squad import XI, fixture_team, opponent_team

FIFTY = FORMATS[Format.FIFTY]
TEAM = fixture_team()


def read(text: str, team: Team = TEAM, fmt: FormatSpec = FIFTY, **ctx: object) -> ParsedOrders:
    return parse_orders(
        text,
        team,
        fmt,
        context=OrderContext(opponent=opponent_team(), **ctx),  # type: ignore[arg-type]
    )


# The sentences of issue 10 and what they mean, in canonical words.
SENTENCES = [
    (
        "After 20 overs, if I have lost 3 wickets or less all batsmen will be aggressive, but "
        "will reduce to normal when the 6th wicket is lost.",
        "after 20 overs, if wickets <= 3: all batsmen bat aggressive; "
        "but when the 6th wicket falls: all batsmen bat normal",
    ),
    ("last 10 overs: all batsmen wahoo", "when 60 balls are left: all batsmen bat wahoo"),
    ("Last 5 overs: everybody slog", "when 30 balls are left: all batsmen bat wahoo"),
    (
        "if the asking rate goes above 8, everyone wahoo",
        "if required rate > 8: all batsmen bat wahoo",
    ),
    (
        "If we're chasing more than 10 an over go wahoo",
        "if required rate > 10: all batsmen bat wahoo",
    ),
    (
        "when 100 runs are needed from 60 balls all wahoo",
        "when 60 balls are left, if runs needed >= 100: all batsmen bat wahoo",
    ),
    (
        "When 7 wickets have fallen, all remaining batsmen defensive",
        "when the 7th wicket falls: the remaining batsmen bat defensive",
    ),
    (
        "when the score is 100 for 2, Root aggressive",
        "when the score reaches 100, if wickets <= 2: Joe Root bats aggressive",
    ),
    (
        "if Root is still in after 30 overs, Root aggressive",
        "after 30 overs, if Joe Root is in: Joe Root bats aggressive",
    ),
    (
        "when the asking rate passes 9 the rest go wahoo",
        "if required rate > 9: the remaining batsmen bat wahoo",
    ),
    (
        "for the first ten overs everyone defensive",
        "after 0 overs: all batsmen bat defensive, until after 10 overs",
    ),
    (
        "while Root is in, Stokes defensive",
        "after 0 balls: Ben Stokes bats defensive, until Joe Root is out",
    ),
    (
        "after twenty overs unless we have lost five wickets all aggressive",
        "after 20 overs, if wickets < 5: all batsmen bat aggressive",
    ),
    (
        "when the sixth wicket falls the tail bats defensive",
        "when the 6th wicket falls: the remaining batsmen bat defensive",
    ),
    (
        "once we pass a hundred and fifty everybody wahoo",
        "when the score reaches 150: all batsmen bat wahoo",
    ),
]


@pytest.mark.parametrize(("text", "echo"), SENTENCES, ids=[t for t, _ in SENTENCES])
def test_issue_sentences_are_understood(text: str, echo: str) -> None:
    """Each conditional sentence of the issue reads, and its echo reads back the same."""
    r = read(text)
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.echo_text() == echo
    assert read(r.echo_text()).orders == r.orders


TEAM_SHEET = [
    (
        "XI: Root (c), Stokes, Tom Smith, Jones, Ant and Dec, Wilson (wk), Flintoff, Green, "
        "White, Warne, Anderson",
        "xi: " + ", ".join(XI) + "\ncaptain: Joe Root\nwicketkeeper: Wilson",
    ),
    ("Root is captain", "captain: Joe Root"),
    ("Wilson keeps wicket", "wicketkeeper: Wilson"),
    ("we'll have a bat", "toss: bat"),
    ("if we win the toss we will put them in", "toss: bowl"),
    ("Warne: overs 5, 7, 9, 11", "Shane Warne bowls overs 5, 7, 9, 11"),
    ("Anderson (1,3,17,19)", "Jimmy Anderson bowls overs 1, 3, 17, 19"),
    (
        "Anderson bowls the 1st, 3rd, 5th and 7th overs",
        "Jimmy Anderson bowls overs 1, 3, 5, 7",
    ),
    (
        "open the bowling with Anderson and Flintoff",
        "Jimmy Anderson bowls over 1\nFreddie Flintoff bowls over 2",
    ),
    ("Flintoff: slog", "Freddie Flintoff bats wahoo"),
    ("Review everything", "batting reviews: all\nbowling reviews: all"),
    (
        "XI: 1,2,3,5,7,9,10,14,15,16,17",
        "xi: Joe Root, Ben Stokes, Tom Smith, Jones, Wilson, Freddie Flintoff, Green, "
        "Shane Warne, Jimmy Anderson, Moss, Stone",
    ),
    ("captain #1", "captain: Joe Root"),
    ("Openers: Root and Stokes", "batting order: Joe Root, Ben Stokes"),
    ("Root and Stokes to open", "batting order: Joe Root, Ben Stokes"),
    ("open the batting with Root and Stokes", "batting order: Joe Root, Ben Stokes"),
    (
        "Anderson and Warne open",
        "Jimmy Anderson bowls over 1\nShane Warne bowls over 2",
    ),
    ("no conditional orders", "clear conditional orders"),
]


@pytest.mark.parametrize(("text", "echo"), TEAM_SHEET, ids=[t for t, _ in TEAM_SHEET])
def test_everyday_team_sheet_wordings(text: str, echo: str) -> None:
    """The everyday wordings of the issue read to the orders a captain means."""
    r = read(text)
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.echo_text() == echo


def test_openers_are_batsmen_never_bowlers() -> None:
    """ "Root and Stokes to open" and "Root opens" never give Root an over."""
    for text in ("Root and Stokes to open", "Root opens", "Root & Stokes open"):
        m = read(text).orders.match
        assert m is not None and m.bowling_plan == ()
        assert m.batting_order is not None and m.batting_order[0] == "Joe Root"


def test_two_readings_are_not_acted_on() -> None:
    """A batsman and a bowler "to open" has two readings: not acted on, both listed."""
    r = read("Root and Anderson to open")
    assert r.orders.match is None
    (n,) = r.not_understood
    assert n.readings == (
        "batting order: Joe Root, Jimmy Anderson",
        "Joe Root bowls over 1; Jimmy Anderson bowls over 2",
    )


def test_places_in_the_batting_order_merge_with_the_xi() -> None:
    """ "Openers", "X at 3" and "Y 4 aggressive" place batsmen; the XI fills the rest."""
    text = "xi: " + ", ".join(XI) + "\nOpeners: Stokes and Root\njones at 3\nwilson 4 aggressive"
    m = read(text).orders.match
    assert m is not None and m.batting_order is not None
    assert m.batting_order[:5] == ("Ben Stokes", "Joe Root", "Jones", "Wilson", "Tom Smith")
    assert dict(m.styles) == {"Wilson": BattingStyle.AGGRESSIVE}


def test_a_place_with_nothing_to_fill_the_gap_is_an_error() -> None:
    """ "Jones at 3" alone leaves places 1 and 2 empty: an error, never a guess."""
    r = read("jones at 3")
    assert [e.message for e in r.errors] == ["nobody is given place 1 of the batting order"]


def test_everyone_else_and_except() -> None:
    """ "Everyone else" and "except" style the batsmen the other lines leave out."""
    text = "batting order: " + ", ".join(XI) + "\nRoot wahoo\nEveryone else defensive"
    m = read(text).orders.match
    assert m is not None
    styles = dict(m.styles)
    assert styles["Joe Root"] is BattingStyle.WAHOO
    assert all(styles[n] is BattingStyle.DEFENSIVE for n in XI[1:])
    m = read("xi: " + ", ".join(XI) + "\nAll batsmen normal except Flintoff wahoo").orders.match
    assert m is not None
    styles = dict(m.styles)
    assert styles["Freddie Flintoff"] is BattingStyle.WAHOO
    assert styles["Joe Root"] is BattingStyle.NORMAL


def test_the_rest_of_the_overs_in_turn_within_quotas() -> None:
    """ "Green and White the rest" shares the overs no line gives, within each quota."""
    r = read("Anderson 1, 3, 5\nWarne 2, 4, 6\ngreen and white the rest", fmt=FORMATS[Format.T20])
    assert r.errors == ()
    plan = dict(r.orders.match.bowling_plan)  # type: ignore[union-attr]
    assert sorted(plan) == list(range(1, 15))
    assert sum(1 for b in plan.values() if b == "Green") == 4
    assert sum(1 for b in plan.values() if b == "White") == 4


CHATTER = [
    "ok fixed i think",
    "Many thanks,",
    "bob",
    "no treatment needed",
    "> captain Stokes",
    "On Tue, 1 Dec 2026 at 09:00, GM <gm@example.org> wrote:",
]


@pytest.mark.parametrize("line", CHATTER)
def test_chatter_costs_nothing(line: str) -> None:
    """Remarks, thanks, a bare name at the end and quoted lines are noted, never errors."""
    r = read(f"{line}\ncaptain: Root\n")
    assert r.errors == ()
    assert r.echo_text() == "captain: Joe Root"
    assert [c.line for c in r.chatter] == [1]


def test_forwarded_text_is_not_read_as_orders() -> None:
    """A forwarded mail (the welcome mail's examples) is noted, not read as names or orders."""
    text = (
        "captain Root\n\n---------- Forwarded message ---------\nFrom: GM\n"
        "NAME 1 Mrs Snodgebucket\ncaptain Stokes\n"
    )
    r = read(text)
    assert r.errors == ()
    assert r.echo_text() == "captain: Joe Root"
    assert r.orders.naming is None
    assert len(r.chatter) == 4


def test_a_misspelt_order_is_still_an_error() -> None:
    """Chatter is kept narrow: a misspelt order word or a quota still gets its error (a
    misspelt style the lexicon knows, "Root agressive", is read: see test_forgiving)."""
    assert read("capitan Root").errors
    assert read("Anderson to bowl 4 overs").errors


def test_names_ignore_case_accents_and_punctuation() -> None:
    """ "beyonce" finds Beyoncé Knowles, "oneill" finds O'Neill, "J.E. Root" finds J E Root."""
    players = list(TEAM.players)
    players[0] = replace(players[0], name="Beyoncé Knowles")
    players[1] = replace(players[1], name="Shaquille O'Neal")
    team = replace(TEAM, players=tuple(players))
    assert read("captain beyonce", team).echo_text() == "captain: Beyoncé Knowles"
    assert read("captain Beyonce Knowles", team).echo_text() == "captain: Beyoncé Knowles"
    assert read("keeper oneal", team).echo_text() == "wicketkeeper: Shaquille O'Neal"
    assert read("keeper S. O'Neal", team).echo_text() == "wicketkeeper: Shaquille O'Neal"


def test_did_you_mean_only_when_plausible() -> None:
    """A phrase that is nobody's name gets no "did you mean"."""
    r = read("If Root gets out early, Stokes bats defensive until he settles")
    assert all("Mary" not in (e.hint or "") for e in r.errors)
    r = read("Stoaks wahoo")
    assert r.errors and "Ben Stokes" in (r.errors[0].hint or "")


def test_numbered_list_names_the_squad() -> None:
    """ "1. Homer Simpson" ... "18. Lionel Hutz" names the 18 slots."""
    names = [f"Springfield Person {chr(65 + i)}" for i in range(18)]
    text = "\n".join(f"{i}. {n}" for i, n in enumerate(names, start=1))
    r = read(text)
    assert r.errors == ()
    assert r.orders.naming == SquadNaming(None, tuple(enumerate(names, start=1)))


def test_rename_finds_the_former_placeholder() -> None:
    """ "rename Batsman 3 as X" still finds slot 3 after the squad was named."""
    former = tuple(p.name for p in TEAM.players)
    players = list(TEAM.players)
    players[2] = replace(players[2], name="Dot Cotton")
    team = replace(TEAM, players=tuple(players))
    r = read("rename Tom Smith as Pat Butcher", team, former_names=former)
    assert r.errors == ()
    assert r.echo_text() == "name 3: Pat Butcher"
    r = read("rename Dot Cotton as Pat Butcher", team, former_names=former)
    assert r.echo_text() == "name 3: Pat Butcher"


def test_watched_conditions_fire_when_they_first_hold() -> None:
    """ "if required rate > 8" fires before the first ball at which the rate passes 8."""
    rule = read("if the asking rate goes above 8, everyone wahoo").orders.match.rules[0]  # type: ignore[union-attr]
    assert rule.trigger == Trigger(TriggerKind.CONDITIONS)
    book = RuleBook(((rule,), ()), fresh_snapshot(((rule,), ())))

    def at(legal: int, score: int) -> list[str]:
        s = Situation(legal, 6, 300, 0, score, 300, frozenset(), False)
        return [f.kind for f in book.step(s)]

    assert at(0, 0) == []  # 300 from 50 overs: 6 an over
    assert at(60, 20) == []  # 280 from 40: 7
    assert at(120, 30) == ["fired"]  # 270 from 30: 9


def test_not_out_condition() -> None:
    """ "if Root is still in" holds while Root is not out."""
    rule = read("if Root is still in after 30 overs, Root aggressive").orders.match.rules[0]  # type: ignore[union-attr]
    assert rule.conditions == (Condition(Quantity.NOT_OUT, Comparison.EQ, 1.0, "Joe Root"),)
    book = RuleBook(((rule,), ()), fresh_snapshot(((rule,), ())))
    s = Situation(180, 6, 300, 3, 100, None, frozenset({"Joe Root"}), False)
    assert [f.kind for f in book.step(s)] == ["spent"]


# ---- merging a mail into what stands ---------------------------------------------------

STANDING = read(
    "xi: "
    + ", ".join(XI)
    + "\ncaptain Root\nkeeper Wilson\ntoss bat\nAnderson 1,3,5\nafter 40 overs: all wahoo"
).orders


def test_a_mail_replaces_only_the_parts_it_contains() -> None:
    """A mail with only a captain changes the captain; the XI, plan and rules stand."""
    merged = merge_orders(STANDING, read("captain: Stokes"))
    m = merged.orders.match
    assert m is not None and STANDING.match is not None
    assert m.captain == "Ben Stokes"
    assert replace(m, captain="Joe Root") == STANDING.match
    assert [(p.part, p.status) for p in merged.parts] == [("captain", "new")]


def test_an_error_blocks_only_its_part() -> None:
    """An XI with an error keeps the XI that stood; the mail's good captain line counts."""
    mail = read("xi: Root, Stokes, Nobody\ncaptain Stokes")
    merged = merge_orders(STANDING, mail)
    assert merged.orders.match is not None and STANDING.match is not None
    assert merged.orders.match.xi == STANDING.match.xi
    assert merged.orders.match.captain == "Ben Stokes"
    assert [(p.part, p.status) for p in merged.parts] == [
        ("xi", "blocked"),
        ("captain", "new"),
    ]


def test_conditional_orders_replace_clear_and_add() -> None:
    """New conditional orders replace those that stood; "no conditional orders" clears them;
    the GM's answer to a flag adds to them."""
    one = merge_orders(STANDING, read("at drinks: all aggressive")).orders.match
    assert one is not None and len(one.rules) == 1
    assert one.rules[0].trigger.kind is TriggerKind.AT_DRINKS
    cleared = merge_orders(STANDING, read("no conditional orders"))
    assert cleared.orders.match is not None and cleared.orders.match.rules == ()
    assert cleared.status("conditional orders") == "cleared"
    added = merge_orders(STANDING, read("at drinks: all aggressive"), add=True).orders.match
    assert added is not None and len(added.rules) == 2


def test_names_merge_by_slot() -> None:
    """A NAME line changes its slot only; the team name and other slots stand."""
    standing = Orders(naming=SquadNaming("Gunge Rovers", ((1, "Joe Root"), (2, "Ben Stokes"))))
    merged = merge_orders(standing, read("name 2: Pat Butcher"))
    assert merged.orders.naming == SquadNaming(
        "Gunge Rovers", ((1, "Joe Root"), (2, "Pat Butcher"))
    )


def test_styles_stand_through_a_new_batting_order() -> None:
    """Styles alone change those batsmen's; a new batting order keeps the styles (issue 22:
    a new order at drinks dropped every style); "new styles:" gives them afresh."""
    standing = read("batting order: Root (wahoo), Stokes (defensive)").orders
    only = merge_orders(standing, read("Stokes aggressive")).orders.match
    assert only is not None
    assert dict(only.styles) == {
        "Joe Root": BattingStyle.WAHOO,
        "Ben Stokes": BattingStyle.AGGRESSIVE,
    }
    reordered = merge_orders(standing, read("batting order: Stokes, Root")).orders.match
    assert reordered is not None and reordered.batting_order == ("Ben Stokes", "Joe Root")
    assert dict(reordered.styles) == {
        "Joe Root": BattingStyle.WAHOO,
        "Ben Stokes": BattingStyle.DEFENSIVE,
    }
    fresh = merge_orders(standing, read("new styles: Jones wahoo")).orders.match
    assert fresh is not None and dict(fresh.styles) == {"Jones": BattingStyle.WAHOO}


def test_all_batsmen_means_the_standing_xi() -> None:
    """ "all batsmen aggressive" in a mail without an XI styles the standing XI."""
    assert STANDING.match is not None
    r = read("all batsmen aggressive", standing=STANDING.match)
    assert r.orders.match is not None and len(r.orders.match.styles) == 11


def test_merged_orders_read_back() -> None:
    """What stands after a merge is canonical text that reads back to the same orders."""
    merged = merge_orders(STANDING, read("captain: Stokes\nno conditional orders")).orders
    assert read(canonical(merged)).orders == replace(merged, match=merged.match or MatchOrders())


_PART_LINES = {
    "captain": "captain: Stokes",
    "wicketkeeper": "wicketkeeper: Jones",
    "toss": "toss: bowl",
    "bowling plan": "Warne overs 2, 4",
    "batting reviews": "batting reviews: never",
    "conditional orders": "at drinks: all batsmen wahoo",
    "helper points": "boost Green fielding",
}


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(sorted(_PART_LINES)), min_size=1))
def test_a_mail_changes_exactly_the_parts_it_gives(parts: set[str]) -> None:
    """Whatever parts a mail gives, those and only those change from what stood."""
    mail = read("\n".join(_PART_LINES[p] for p in sorted(parts)))
    merged = merge_orders(STANDING, mail)
    assert {r.part for r in merged.parts} == parts
    before, after = STANDING.match, merged.orders.match
    assert before is not None and after is not None
    fields = {
        "xi": "xi",
        "captain": "captain",
        "wicketkeeper": "wicketkeeper",
        "toss": "toss",
        "bowling plan": "bowling_plan",
        "batting reviews": "batting_reviews",
        "conditional orders": "rules",
    }
    for part, name in fields.items():
        same = getattr(before, name) == getattr(after, name)
        assert same is (part not in parts), part
    assert (merged.orders.helpers is not None) is ("helper points" in parts)
