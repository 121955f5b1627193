"""Building the decks from Cricsheet's downloads: read, count, pick cards, write the files.

Which matches count: international matches (``team_type``) of the deck's ``match_type`` and
gender; a match in two sources counts once
(:func:`pbm.games.hitforsix.decks.cricsheet.plan_matches`). Cricsheet
withholds Afghanistan's men's matches and pbm follows it: should an older download still hold
one, it is left out (and reported), so a build never depends on which download was used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.hitforsix.cards import Card
from pbm.games.hitforsix.decks.cricsheet import Match, Source, discover_sources, plan_matches
from pbm.games.hitforsix.decks.deckfile import DeckFile, encode
from pbm.games.hitforsix.decks.load import DECK_SPECS, DeckSpec, spec
from pbm.games.hitforsix.decks.names import initials
from pbm.games.hitforsix.decks.tally import Career, Tally

__all__ = [
    "BuildReport",
    "BuiltDeck",
    "build_decks",
    "counted",
    "default_out_dir",
    "make_deck",
    "write_decks",
]

COUNTED_TYPES = frozenset({"T20", "ODI", "Test"})


def counted(match: Match) -> str | None:
    """Why ``match`` is left out of every deck, or ``None`` when it counts."""
    if match.team_type != "international":
        return "not international"
    if match.match_type not in COUNTED_TYPES:
        return f"match type {match.match_type}"
    teams = {team for team, _ in match.players}
    if match.gender == "male" and "Afghanistan" in teams:
        return "Afghanistan men (withheld by Cricsheet)"
    return None


@dataclass(frozen=True, slots=True)
class BuiltDeck:
    """One built deck, its file bytes and build id."""

    file: DeckFile
    data: bytes
    build: str


@dataclass(slots=True)
class BuildReport:
    """What a build read and made."""

    sources: list[str] = field(default_factory=list)
    matches_read: int = 0
    left_out: Counter[str] = field(default_factory=Counter)
    decks: dict[str, BuiltDeck] = field(default_factory=dict)


def _unique_names(careers: dict[str, Career]) -> dict[str, str]:
    """Each player's card name; namesakes in one deck are told apart Cricsheet's way.

    The scorebook sometimes gives two players the same name (two Shahadat Hossains played
    Tests for Bangladesh). The one who played first in the format keeps the name; the next gets
    " (2)", and so on, as Cricsheet's own registry does.
    """
    by_name: dict[str, list[str]] = {}
    for pid, career in careers.items():
        by_name.setdefault(career.name(), []).append(pid)
    taken = set(by_name)
    names = {}
    for name, pids in by_name.items():
        pids.sort(key=lambda p: (careers[p].first, p))
        names[pids[0]] = name
        k = 2
        for pid in pids[1:]:
            while f"{name} ({k})" in taken:
                k += 1
            names[pid] = f"{name} ({k})"
            taken.add(names[pid])
    return names


def make_deck(deck: DeckSpec, tally: Tally) -> DeckFile:
    """The cards of ``deck`` from the counted careers."""
    fmt = (deck.match_type, deck.gender)
    chosen = {
        pid: career
        for (match_type, gender, pid), career in tally.careers.items()
        if (match_type, gender) == fmt and deck.admits(career.country(), career.matches)
    }
    names = _unique_names(chosen)
    cards = []
    for pid, career in chosen.items():
        country = career.country()
        name = names[pid]
        cards.append(
            Card(
                id=pid,
                name=name,
                initials=initials(name),
                country=country,
                matches=career.matches,
                runs=career.runs,
                dismissals=career.dismissals,
                balls_faced=career.balls_faced,
                fours=career.fours,
                sixes=career.sixes,
                balls_bowled=career.balls_bowled,
                runs_conceded=career.runs_conceded,
                wickets=career.wickets,
            )
        )
    first, last = tally.dates.get(fmt, ("", ""))
    return DeckFile(
        deck=deck.name,
        title=deck.title,
        min_matches=deck.min_matches,
        source_matches=tally.matches[fmt],
        first_date=first,
        last_date=last,
        cards=tuple(sorted(cards, key=lambda c: c.id)),
    )


def build_decks(
    root: Path,
    names: Iterable[str] = (),
    *,
    on_start: Callable[[int], None] | None = None,
    on_match: Callable[[Match], None] | None = None,
    specs: Sequence[DeckSpec] | None = None,
) -> BuildReport:
    """Read every Cricsheet source under ``root`` and build the named decks (default: all).

    ``on_start(total)`` and ``on_match(match)`` report progress; only the formats the decks
    need are counted. ``specs`` replaces the decks' own specs (tests use it for tiny data).
    """
    if specs is None:
        specs = [spec(n) for n in names] if names else list(DECK_SPECS)
    sources: list[Source] = discover_sources(root)
    report = BuildReport(sources=[f"{s.path} ({s.format})" for s in sources])
    plan = plan_matches(sources)
    if on_start is not None:
        on_start(len(plan))
    tally = Tally()
    wanted = {(s.match_type, s.gender) for s in specs}
    try:
        for source, match_id in plan:
            match = source.read(match_id)
            report.matches_read += 1
            why = counted(match)
            if why is None and (match.match_type, match.gender) not in wanted:
                why = f"no deck for {match.gender} {match.match_type} matches"
            if why is None:
                tally.add(match)
            else:
                report.left_out[why] += 1
            if on_match is not None:
                on_match(match)
    finally:
        for source in sources:
            source.close()
    for s in specs:
        file = make_deck(s, tally)
        data = encode(file)
        report.decks[s.name] = BuiltDeck(file=file, data=data, build=file.build)
    return report


def default_out_dir() -> Path:
    """The package's own deck folder (``pbm/games/hitforsix/decks/data``), where shipped decks
    live."""
    return Path(__file__).resolve().parent / "data"


def write_decks(report: BuildReport, out_dir: Path) -> list[Path]:
    """Write each built deck as ``<name>.json.gz`` in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, built in report.decks.items():
        path = out_dir / f"{name}.json.gz"
        path.write_bytes(built.data)
        written.append(path)
    return written
