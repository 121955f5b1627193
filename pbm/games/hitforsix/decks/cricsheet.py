"""Reading Cricsheet's per-match downloads into one plain shape, whatever the file format.

Two formats are read:

* **JSON** (Cricsheet JSON 1.0.0/1.1.0): ``<match_id>.json`` files, loose in a folder or in a
  zip such as ``t20s_json.zip`` (read straight from the zip, never extracted).
* **csv2** (the "Ashwin" format): ``<match_id>.csv`` (ball by ball) with ``<match_id>_info.csv``
  (``info,player,…`` and ``info,registry,people,…`` rows), loose or zipped.

Everything is keyed by Cricsheet registry id (``info.registry.people``), never by name: a
delivery naming a person missing from its match's registry is a format error, not a guess.

csv2 files lack two things the JSON has, and the reader fills them in as documented in
``docs/rules/hitforsix-decks.md``: the match type (taken from the archive's ``README.txt`` match
list, else from the archive's Cricsheet name ``t20s_…``/``odis_…``/``tests_…``), and the
``non_boundary`` flag (a csv2 4 or 6 off the bat is always a boundary). A csv2 innings beyond the
second of a limited-overs match is a super over.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from pbm.core.errors import PbmError

__all__ = [
    "Ball",
    "CricsheetFormatError",
    "Match",
    "Source",
    "discover_sources",
    "iter_matches",
    "plan_matches",
]


class CricsheetFormatError(PbmError):
    """A file that should be Cricsheet match data cannot be read as such."""


class Ball(NamedTuple):
    """One legal or illegal delivery, reduced to what a career line needs."""

    batter: str  # registry id
    bowler: str  # registry id
    batter_runs: int
    non_boundary: bool
    wides: int
    noballs: int
    wickets: tuple[tuple[str, str], ...]  # (kind, registry id of the player out)


@dataclass(frozen=True, slots=True)
class Match:
    """One match: its identity, its XIs (registry ids by team) and its balls (no super overs)."""

    id: str
    match_type: str  # "T20", "ODI", "Test", … as Cricsheet writes it
    gender: str  # "male" / "female"
    team_type: str  # "international" unless the data says otherwise
    date: str  # ISO date of the first day
    players: tuple[tuple[str, tuple[str, ...]], ...]  # (team, registry ids) in the data's order
    names: tuple[tuple[str, str], ...]  # (registry id, name used in this match)
    balls: tuple[Ball, ...]


_README_LINE = re.compile(
    r"^(\d{4}-\d{2}-\d{2}) - (\w+) - (\w+) - (male|female) - (\S+) - ", re.MULTILINE
)
_ARCHIVE_TYPES = {"t20s": "T20", "odis": "ODI", "tests": "Test"}
_LIMITED_OVERS = frozenset({"T20", "ODI", "IT20", "ODM"})


def _match_types_from_readme(text: str) -> dict[str, str]:
    return {m.group(5): m.group(3) for m in _README_LINE.finditer(text)}


def _archive_type(stem: str) -> str | None:
    return _ARCHIVE_TYPES.get(stem.split("_", 1)[0].lower())


class Source:
    """A folder or zip of one format; ``ids`` lists its matches, ``read(id)`` parses one."""

    def __init__(self, path: Path, fmt: str, files: dict[str, str]) -> None:
        self.path = path
        self.format = fmt  # "json" or "csv2"
        self._files = files  # member name (zip) or relative path, by match id
        self._zip: zipfile.ZipFile | None = None
        self._types: dict[str, str] = {}
        if fmt == "csv2":
            readme = self._read_text("README.txt", missing_ok=True)
            self._types = _match_types_from_readme(readme) if readme else {}

    def __repr__(self) -> str:
        return f"Source({str(self.path)!r}, {self.format!r}, {len(self._files)} matches)"

    @property
    def ids(self) -> list[str]:
        return sorted(self._files, key=_id_key)

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
            self._zip = None

    def _read_text(self, member: str, *, missing_ok: bool = False) -> str | None:
        try:
            if self.path.is_dir():
                return (self.path / member).read_text(encoding="utf-8")
            if self._zip is None:
                self._zip = zipfile.ZipFile(self.path)
            return self._zip.read(member).decode("utf-8")
        except (KeyError, FileNotFoundError):
            if missing_ok:
                return None
            raise CricsheetFormatError(f"{self.path}: {member} is missing") from None

    def read(self, match_id: str) -> Match:
        member = self._files[match_id]
        text = self._read_text(member)
        assert text is not None
        where = f"{self.path}:{member}"
        try:
            if self.format == "json":
                return _parse_json(match_id, json.loads(text))
            info = self._read_text(member[: -len(".csv")] + "_info.csv")
            assert info is not None
            match_type = self._types.get(match_id) or _archive_type(self.path.stem)
            if match_type is None:
                raise CricsheetFormatError(
                    "cannot tell the match type of a csv2 file: the archive's README.txt does"
                    " not list it and the archive is not named like Cricsheet's"
                    " t20s_/odis_/tests_ downloads"
                )
            return _parse_csv2(match_id, match_type, info, text)
        except CricsheetFormatError as exc:
            raise CricsheetFormatError(f"{where}: {exc}") from None
        except (KeyError, ValueError, IndexError, TypeError) as exc:
            raise CricsheetFormatError(f"{where}: not Cricsheet match data ({exc!r})") from None


def _id_key(match_id: str) -> tuple[int, str]:
    return (len(match_id), match_id)


def _classify(names: list[str]) -> tuple[str, dict[str, str]] | None:
    """The format and match files among ``names`` (base names or zip members), if any."""
    base = {n.rsplit("/", 1)[-1]: n for n in names}
    infos = {b[: -len("_info.csv")] for b in base if b.endswith("_info.csv")}
    csv2 = {i: base[f"{i}.csv"] for i in infos if f"{i}.csv" in base}
    js = {b[: -len(".json")]: n for b, n in base.items() if b.endswith(".json")}
    js = {k: v for k, v in js.items() if k.isdigit()}  # Cricsheet match files are <digits>.json
    if js and not csv2:
        return "json", js
    if csv2 and not js:
        return "csv2", csv2
    return None


def discover_sources(root: Path) -> list[Source]:
    """Every Cricsheet zip or folder of match files at or under ``root``, in path order."""
    if not root.exists():
        raise CricsheetFormatError(f"{root}: no such file or folder")
    found: list[Source] = []
    candidates = [root] if root.is_file() else [root, *sorted(root.rglob("*"))]
    for path in candidates:
        if path.is_dir():
            got = _classify([p.name for p in path.iterdir() if p.is_file()])
        elif path.suffix == ".zip":
            try:
                with zipfile.ZipFile(path) as zf:
                    got = _classify(zf.namelist())
            except zipfile.BadZipFile:
                raise CricsheetFormatError(f"{path}: not a readable zip") from None
        else:
            continue
        if got is not None:
            found.append(Source(path, got[0], got[1]))
    return found


def plan_matches(sources: list[Source]) -> list[tuple[Source, str]]:
    """Each match once: JSON before csv2 (it carries ``non_boundary``), then path order."""
    chosen: dict[str, Source] = {}
    for source in sorted(sources, key=lambda s: (s.format != "json", str(s.path))):
        for match_id in source.ids:
            chosen.setdefault(match_id, source)
    return [(chosen[m], m) for m in sorted(chosen, key=_id_key)]


def _registry(people: dict[str, str], name: str) -> str:
    try:
        return people[name]
    except KeyError:
        raise CricsheetFormatError(f"{name!r} is not in the match's registry") from None


def _parse_json(match_id: str, data: dict[str, Any]) -> Match:
    info = data["info"]
    people: dict[str, str] = info["registry"]["people"]
    raw_players = [(str(team), list(names)) for team, names in info["players"].items()]
    players = tuple((t, tuple(_registry(people, p) for p in ps)) for t, ps in raw_players)
    balls: list[Ball] = []
    for innings in data.get("innings", ()):
        if innings.get("super_over"):
            continue
        for over in innings.get("overs", ()):
            for d in over["deliveries"]:
                runs = d["runs"]
                extras = d.get("extras", {})
                wickets = tuple(
                    (str(w["kind"]), _registry(people, w["player_out"]))
                    for w in d.get("wickets", ())
                )
                balls.append(
                    Ball(
                        _registry(people, d["batter"]),
                        _registry(people, d["bowler"]),
                        int(runs["batter"]),
                        bool(runs.get("non_boundary", False)),
                        int(extras.get("wides", 0)),
                        int(extras.get("noballs", 0)),
                        wickets,
                    )
                )
    return Match(
        id=match_id,
        match_type=str(info["match_type"]),
        gender=str(info["gender"]),
        team_type=str(info.get("team_type", "international")),
        date=str(info["dates"][0]),
        players=players,
        names=_names_in(raw_players, people),
        balls=tuple(balls),
    )


def _names_in(
    raw_players: list[tuple[str, list[str]]], people: dict[str, str]
) -> tuple[tuple[str, str], ...]:
    """(registry id, name) for each player, the name as this match's XI lists it."""
    return tuple(sorted({(people[n], n) for _, names in raw_players for n in names}))


def _int(cell: str) -> int:
    return int(cell) if cell else 0


def _parse_csv2(match_id: str, match_type: str, info_text: str, balls_text: str) -> Match:
    people: dict[str, str] = {}
    teams: dict[str, list[str]] = {}
    gender = ""
    dates: list[str] = []
    team_type = "international"
    for row in csv.reader(io.StringIO(info_text)):
        if len(row) < 3 or row[0] != "info":
            continue
        key = row[1]
        if key == "registry" and row[2] == "people":
            people[row[3]] = row[4]
        elif key == "player":
            teams.setdefault(row[2], []).append(row[3])
        elif key == "gender":
            gender = row[2]
        elif key == "date":
            dates.append(row[2].replace("/", "-"))
        elif key == "team_type":
            team_type = row[2]
    if not teams or not gender or not dates:
        raise CricsheetFormatError("the _info.csv lacks players, gender or date rows")
    players = tuple((t, tuple(_registry(people, p) for p in ps)) for t, ps in teams.items())
    balls: list[Ball] = []
    reader = csv.DictReader(io.StringIO(balls_text))
    for rec in reader:
        if match_type in _LIMITED_OVERS and int(rec["innings"]) > 2:
            continue  # csv2 marks no super over: a third innings of a limited-overs match is one
        wickets = tuple(
            (rec[kind], _registry(people, rec[out]))
            for kind, out in (
                ("wicket_type", "player_dismissed"),
                ("other_wicket_type", "other_player_dismissed"),
            )
            if rec.get(kind)
        )
        balls.append(
            Ball(
                _registry(people, rec["striker"]),
                _registry(people, rec["bowler"]),
                _int(rec["runs_off_bat"]),
                False,
                _int(rec["wides"]),
                _int(rec["noballs"]),
                wickets,
            )
        )
    return Match(
        id=match_id,
        match_type=match_type,
        gender=gender,
        team_type=team_type,
        date=min(dates),
        players=players,
        names=_names_in(list(teams.items()), people),
        balls=tuple(balls),
    )


def iter_matches(sources: list[Source]) -> Iterator[Match]:
    """Every match of ``sources`` once (see :func:`plan_matches`), in match-id order."""
    try:
        for source, match_id in plan_matches(sources):
            yield source.read(match_id)
    finally:
        for source in sources:
            source.close()
