"""A played-out demo season as turn reports: what tests, the bench and ``pbm zine demo`` use.

It drives the lead's pure season resolver (:func:`engine.flungo.turn.resolve_stage`) exactly
as the daemon does, with standing orders for most teams (a conditional order each, so the
zine has orders firing to report) and none for one team in three (it plays on defaults).
Nothing here is used to build an issue of a real competition: issues are built from stored
reports and never re-roll anything.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.flungo.competition import Competition
from engine.flungo.draw import new_knockout, new_league
from engine.flungo.formats import Format
from engine.flungo.language import parse_orders
from engine.flungo.orders import Orders
from engine.flungo.plan import default_xi
from engine.flungo.squad import Role, Team, generate_squad
from engine.flungo.turn import TurnReport, resolve_stage, start_season

__all__ = ["CELEBRITIES", "TEAM_NAMES", "demo_season", "demo_squads"]

TEAM_NAMES = (
    "Gunge Giants",
    "Snodge Stars",
    "Chipping Sodbury CC",
    "Dundee Cakes",
    "Protoplasm Park",
    "Test Match Specials",
    "Flungo Flyers",
    "Radio Ga Ga",
    "Blobby Bashers",
    "The Replicas",
    "Earth TV XI",
    "Gloop Rovers",
    "Martian Mavericks",
    "Galactic Googlies",
    "Nebula Nomads",
    "Cosmic Cutters",
)

CELEBRITIES = (
    "Elvis Presley",
    "Lassie",
    "Mrs Snodgebucket",
    "Winston Churchill",
    "Kermit the Frog",
    "Delia Smith",
    "Marie Curie",
    "Basil Brush",
    "Freddie Mercury",
    "Ada Lovelace",
    "Zippy",
    "Hank Marvin",
    "Boudicca",
    "Skippy",
    "Nelson Mandela",
    "Dot Cotton",
    "Mr Blobby",
    "Brian Johnston",
    "Bungle",
    "Jimi Hendrix",
    "Cleopatra",
    "Shergar",
    "Bugs Bunny",
    "Noel Edmonds",
    "Florence Nightingale",
    "Sooty",
    "Alan Turing",
    "Trigger",
    "Greta Garbo",
    "Parsnip",
)

ORDERS = (
    "xi: {xi}\ncaptain: {captain}\nwicketkeeper: {keeper}\ntoss: {toss}\n"
    "batting order: {order}\n"
    "{first} aggressive, {second} wahoo\n"
    "after 5 overs, if wickets < 2: all batsmen bat aggressive\n"
    "when the 6th wicket falls, the rest bat defensive"
)


def demo_squads(count: int, seed: int = 1, names: tuple[str, ...] = TEAM_NAMES) -> list[Team]:
    """``count`` named squads; every team has an "Elvis Presley" (the seed allows one
    celebrity in several teams), the other names rotate through :data:`CELEBRITIES`."""
    teams = []
    for i in range(count):
        base = generate_squad(Dice(seed * 1000 + i), names[i % len(names)])
        players = []
        used: set[str] = set()
        for k, p in enumerate(base.players):
            name = "Elvis Presley" if k == 0 else CELEBRITIES[(i * 7 + k) % len(CELEBRITIES)]
            while name in used:
                name = f"{name} Jr"
            used.add(name)
            players.append(replace(p, name=name))
        teams.append(Team(base.name, tuple(players)))
    return teams


def _orders(team: Team, fmt: Format) -> Orders:
    xi = [team.player(n) for n in default_xi(team)]
    keeper = next((p.name for p in xi if p.role is Role.WICKETKEEPER), xi[0].name)
    bats = sorted(xi, key=lambda p: -p.batting)
    text = ORDERS.format(
        xi=", ".join(p.name for p in xi),
        captain=bats[1].name,
        keeper=keeper,
        toss="bowl" if len(team.name) % 2 else "bat",
        order=", ".join(p.name for p in bats),
        first=bats[0].name,
        second=bats[4].name,
    )
    parsed = parse_orders(text, team, fmt)
    return parsed.orders


def demo_season(
    teams: int = 4,
    *,
    knockout: bool = False,
    fmt: Format = Format.T20,
    seed: int = 1,
    code: str = "DEMO",
    stages: int | None = None,
    squads: list[Team] | None = None,
    editorial: str | None = None,
) -> list[TurnReport]:
    """Play a whole competition (or its first ``stages`` stages) and return its reports,
    each with a deadline, an editorial and now and then a ruling, as the daemon fills them."""
    squads = squads or demo_squads(teams, seed)
    names = [t.name for t in squads]
    dice = Dice(seed)
    comp: Competition
    if knockout:
        comp, _ = new_knockout(f"{code} Cup", names, fmt, dice, third_place=len(names) == 4)
    else:
        comp, _ = new_league(f"{code} League", names, fmt, dice)
    state = start_season(comp, squads, f"{code}-season-seed-{seed}")
    orders = {t.name: _orders(t, fmt) for k, t in enumerate(squads) if k % 3 != 1}
    reports: list[TurnReport] = []
    while stages is None or len(reports) < stages:
        try:
            state, report = resolve_stage(state, orders)
        except ValueError:
            break
        n = len(reports) + 1
        text = (
            editorial
            if editorial is not None
            else (
                f"Welcome to issue {n} of the Cosmic Celebrity Cricket Gazette. The gunge is "
                "warm, the pitches are rolled and Mrs Snodgebucket's Dundee cake is still "
                "32,478 million years away."
            )
        )
        reports.append(
            replace(
                report,
                next_deadline=f"2027-{1 + n // 28:02d}-{1 + n % 28:02d}T18:00:00Z",
                editorial=text,
                rulings=(f"Turn {report.stage.turn}: a late order was accepted by the GM.",)
                if n % 3 == 2
                else (),
            )
        )
    return reports
