"""The typed orders a Flungo manager gives: the model shared by the order language and the engine.

The order language (``engine.flungo.language``) turns a player's text into these values and
writes them back canonically; the engine (``engine.flungo.match``) obeys them. Nothing here
parses text or rolls dice. Every value is frozen and hashable, so ``parse(canonical(x)) == x``
can be checked with ``==``.

Names in orders are squad members' exact names (the parser resolves surnames and prefixes to
the full name before building these values).

Semantics of conditional orders (the player's guide states the same in words):

* Rules are evaluated **before each ball** of an innings in which the rule's owner bats or
  bowls, and once more at the drinks interval (for ``AT_DRINKS``). Quantities always describe the
  innings in progress (``WICKETS`` is wickets fallen in it, whoever gives the order).
* A rule fires **at most once per innings**: the first time its trigger holds. Its conditions are
  checked at that moment; if they fail, the rule is spent and does not fire in that innings.
* When a rule fires, its actions apply at once (to the next ball on); its ``then`` rules are
  armed from that moment (the "but ... when ..." chain); and its ``until`` trigger, if any, is
  watched: when it holds, each batsman's style set by this rule returns to what it was just
  before the rule fired (bowling and review changes are not reverted).
* Actions that do not apply to the side the owner is playing (a style change while bowling, a
  bowling change while batting) are ignored in that innings.
* When two rules fire before the same ball, they apply in the order written, so the later one
  wins any conflict.
* "Except", "everyone else" and "the rest" of the batsmen in a rule are resolved when the
  order is read, into an ``ALL`` or ``REMAINING`` target ``excluding`` names: those excepted,
  and for "everyone else" and "the rest" the batsmen the same rule's other style actions name
  ("everyone else" in a rule that names none leaves out those the mail's other lines give a
  style). The echo names them, so the player sees whom "else" leaves out.
* "X and Y the rest" of the overs in a rule (:class:`BowlingRest`) is resolved when the rule
  fires, as the overs are then known: every over from the next one to start to the end of the
  innings that the rule's :class:`BowlingChange` actions do not give, shared in turn by the
  bowlers named, each within his quota and the succession limit counting the overs he has
  bowled; an over none of them may take stays with the plan's bowler (or, if the plan gave it
  to one of them, with the default bowler). When the trigger fixes no over (a wicket, a score,
  a rate) "the rest" starts at the next over to begin, as a captain means "from now on".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

__all__ = [
    "Action",
    "BattingStyle",
    "BowlingChange",
    "BowlingRest",
    "Comparison",
    "Condition",
    "HelperSpend",
    "MatchOrders",
    "Orders",
    "Quantity",
    "ReviewMode",
    "ReviewPolicy",
    "ReviewsChange",
    "Rule",
    "SquadNaming",
    "Stat",
    "StyleChange",
    "StyleTarget",
    "TargetKind",
    "TossChoice",
    "Trigger",
    "TriggerKind",
]


class BattingStyle(StrEnum):
    """The four batting styles; ``NORMAL`` is the default."""

    DEFENSIVE = "defensive"
    NORMAL = "normal"
    AGGRESSIVE = "aggressive"
    WAHOO = "wahoo"


class TossChoice(StrEnum):
    """What to do on winning the toss."""

    BAT = "bat"
    BOWL = "bowl"


class ReviewMode(StrEnum):
    """When a side asks for an lbw review (while it has reviews left)."""

    ALL = "all"  # the default: review every lbw until exhausted
    NEVER = "never"
    NAMED = "named"  # only when the batsman involved is one of ``names``
    TOP_ORDER = "top_order"  # only when the batsman involved is in the first ``top`` of the order


@dataclass(frozen=True, slots=True)
class ReviewPolicy:
    """A side's reviews policy; the same model serves the batting and the bowling side."""

    mode: ReviewMode = ReviewMode.ALL
    names: tuple[str, ...] = ()
    top: int = 0


class TriggerKind(StrEnum):
    """When a conditional rule may fire."""

    AFTER_OVERS = "after_overs"  # value: N completed overs in the innings
    AFTER_BALLS = "after_balls"  # value: N legal balls bowled in the innings
    AT_DRINKS = "at_drinks"  # the drinks interval
    WICKET = "wicket"  # value: the Nth wicket of the innings has fallen
    BATSMAN_OUT = "batsman_out"  # name: that batsman is out
    SCORE_REACHES = "score_reaches"  # value: the batting side's score >= N
    RUNS_NEEDED = "runs_needed"  # value: second innings, runs still needed <= N
    BALLS_LEFT = "balls_left"  # value: legal balls left in the innings <= N
    # No event: the rule fires before the first ball at which all its conditions hold
    # ("if the asking rate goes above 8, everyone wahoo" watches the rate all innings).
    CONDITIONS = "conditions"


@dataclass(frozen=True, slots=True)
class Trigger:
    """A trigger; ``value`` or ``name`` as the kind needs (see :class:`TriggerKind`)."""

    kind: TriggerKind
    value: int | None = None
    name: str | None = None


class Quantity(StrEnum):
    """What a condition measures, in the innings in progress."""

    WICKETS = "wickets"  # wickets fallen
    SCORE = "score"  # runs scored by the batting side
    RUN_RATE = "run_rate"  # runs per over so far (0 before the first ball)
    REQUIRED_RATE = "required_rate"  # runs needed per over remaining (second innings only)
    OVERS = "overs"  # completed overs, as a number of overs (balls / balls_per_over)
    RUNS_NEEDED = "runs_needed"  # runs still needed to win (second innings only)
    BALLS_LEFT = "balls_left"  # legal balls left in the innings
    NOT_OUT = "not_out"  # 1 while the condition's ``name`` is not out, else 0 ("Root is in")


class Comparison(StrEnum):
    """Comparison operators, canonical symbols as values."""

    LE = "<="
    LT = "<"
    GE = ">="
    GT = ">"
    EQ = "="


@dataclass(frozen=True, slots=True)
class Condition:
    """``quantity op value``, e.g. wickets <= 3. All of a rule's conditions must hold.

    ``name`` is the batsman of a ``NOT_OUT`` condition (``NOT_OUT = 1``: he is still in).
    """

    quantity: Quantity
    op: Comparison
    value: float
    name: str | None = None


class TargetKind(StrEnum):
    """Which batsmen a style change applies to."""

    ALL = "all"  # every batsman of the side (those in and those to come)
    NAMED = "named"  # ``names``
    NEXT = "next"  # the next ``count`` batsmen to come in (not those at the crease)
    REMAINING = "remaining"  # everyone not yet out, at the crease or to come


@dataclass(frozen=True, slots=True)
class StyleTarget:
    """The batsmen a style change applies to.

    ``excluding`` (with ``ALL`` or ``REMAINING`` only): those batsmen are left out, as in "all
    batsmen wahoo except Root" or "Flintoff slog, everyone else wahoo".
    """

    kind: TargetKind
    names: tuple[str, ...] = ()
    count: int = 0
    excluding: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StyleChange:
    """Set the batting style of ``target`` to ``style``."""

    target: StyleTarget
    style: BattingStyle


@dataclass(frozen=True, slots=True)
class BowlingChange:
    """``bowler`` bowls these overs (1-based) instead of whoever the plan had."""

    bowler: str
    overs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ReviewsChange:
    """Replace the side's reviews policy."""

    policy: ReviewPolicy


@dataclass(frozen=True, slots=True)
class BowlingRest:
    """ "X and Y the rest" in a rule: the overs left when it fires, shared by ``bowlers``.

    Which overs is decided when the rule fires (see the module docstring): the overs the rule's
    :class:`BowlingChange` actions give are not among them.
    """

    bowlers: tuple[str, ...]


Action = StyleChange | BowlingChange | BowlingRest | ReviewsChange


@dataclass(frozen=True, slots=True)
class Rule:
    """One conditional order: trigger, conditions, actions, an ``until`` and chained rules."""

    trigger: Trigger
    conditions: tuple[Condition, ...] = ()
    actions: tuple[Action, ...] = ()
    until: Trigger | None = None
    then: tuple[Rule, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchOrders:
    """A side's orders for a match (or the amendments at drinks).

    ``None`` (or empty) means "not given": the engine keeps what it had or uses the documented
    default. ``bowling_plan`` maps over number (1-based) to bowler, as a sorted tuple of pairs.
    ``styles`` maps batsman to style, sorted by name; batsmen not listed bat ``NORMAL``.

    ``cleared`` is for amendments only (what the season resolver hands a match under way, see
    :func:`engine.flungo.amend.amendment`): the parts, ``"bowling plan"`` or ``"conditional
    orders"``, that this amendment gives *whole*, so what it leaves out is gone (an over it does
    not name goes to the default bowler; no rules means none). Standing orders never carry it,
    and the order language neither reads nor writes it.
    """

    xi: tuple[str, ...] | None = None
    captain: str | None = None
    wicketkeeper: str | None = None
    toss: TossChoice | None = None
    batting_order: tuple[str, ...] | None = None
    styles: tuple[tuple[str, BattingStyle], ...] = ()
    bowling_plan: tuple[tuple[int, str], ...] = ()
    batting_reviews: ReviewPolicy | None = None
    bowling_reviews: ReviewPolicy | None = None
    rules: tuple[Rule, ...] = ()
    cleared: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SquadNaming:
    """Team name and squad names: ``names`` pairs a 1-based slot with the chosen name."""

    team_name: str | None = None
    names: tuple[tuple[int, str], ...] = ()


class Stat(StrEnum):
    """What a helper-point boost improves."""

    BATTING = "batting"
    BOWLING = "bowling"
    FIELDING = "fielding"


@dataclass(frozen=True, slots=True)
class HelperSpend:
    """Between matches: ``treatments`` (name, points) and ``boosts`` (name, stat)."""

    treatments: tuple[tuple[str, int], ...] = ()
    boosts: tuple[tuple[str, Stat], ...] = ()


@dataclass(frozen=True, slots=True)
class Orders:
    """Everything one email of orders can say; each part is optional."""

    naming: SquadNaming | None = None
    match: MatchOrders | None = None
    helpers: HelperSpend | None = None
    extras: tuple[str, ...] = field(default=())  # canonical lines the engine does not act on
