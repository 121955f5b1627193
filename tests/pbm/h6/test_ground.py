"""The one-file ground (law 7.02): one static page that agrees with the engine, in Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.dice import Dice, seed_from_text
from engine.hitforsix.cards import Deck
from engine.hitforsix.code import encode
from engine.hitforsix.deal import daily_seed, deal, parse_seed
from engine.hitforsix.game import play_solo
from engine.hitforsix.over import Decisions
from engine.hitforsix.resemblance import deck_moments
from engine.hitforsix.rules import RULES, Rule
from pbm.cli import main
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck
from pbm.games.hitforsix.ground import FIELDS, ground_html
from tests.engine.hitforsix.synthetic import synthetic_deck
from tests.pbm.h6.browser import run_page

DROPS = ["", "0,1,2/11/12", "4,7", "0,1,2/3,11/12", "10/9/8", "0,5,9/11,12/13"]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ground, written once to a file as `pbm h6 ground > ground.html` would."""
    result = CliRunner().invoke(main, ["h6", "ground"])
    assert result.exit_code == 0
    path = tmp_path_factory.mktemp("ground") / "ground.html"
    path.write_text(result.output, "utf-8")
    return path


def _columns(deck: Deck) -> dict[str, Any]:
    return {
        "build": deck.build,
        "title": deck.name,
        "columns": {f: [getattr(c, f) for c in deck.cards] for f in FIELDS},
        "moments": [None if m is None else list(m) for m in deck_moments(deck)],
    }


def _expected(deck: Deck, seed: int, rule: Rule | None, drops: str) -> dict[str, Any]:
    d = deal(deck, seed)
    game = play_solo(d, rule or d.rule, Decisions.from_text(drops))
    return {
        "seed": str(d.seed),
        "indices": list(d.indices),
        "rule": d.rule.value,
        "hidden": d.hidden_rule.value,
        "line": d.line,
        "xi": list(game.xi),
        "judged_by": game.judged_by.value,
        "score": game.grade.score,
        "beats": game.grade.beats,
        "ties": game.grade.ties,
        "tenths": game.grade.tenths,
        "code": encode(game),
        "resembles": game.resemblance.match.name,
        "distance": game.resemblance.distance,
    }


def test_the_ground_is_one_file_that_calls_nobody() -> None:
    """No fetch, no external script, style, font or image; a CSP forbids any; decks inline."""
    text = ground_html()
    assert "default-src 'none'" in text
    for needle in ("fetch(", "XMLHttpRequest", "import(", "<link", "src=", "url(", "@import"):
        assert needle not in text, needle
    assert not re.search(r"https?://", text)
    data = json.loads(
        re.search(r'id="h6-data">(.*?)</script>', text, re.S).group(1).replace("<\\/", "</")  # type: ignore[union-attr]
    )
    assert set(data["decks"]) == set(DECK_NAMES)
    for name in DECK_NAMES:
        assert data["decks"][name]["build"] == load_deck(name).build
    assert len(text) < 400_000  # compact: columns, no registry ids


def test_the_published_vectors_in_chromium(page: Path) -> None:
    """The page reproduces docs/rules/dice.md and hitforsix.md's vectors, deal and code."""
    cards60 = synthetic_deck(60, 11)
    spec = {
        "decks": {"t20i": _columns(Deck("t20i", "example", cards60.cards))},
        "dice": [
            {"seed": 0, "below": []},
            {"seed": 2026, "below": [*range(40, 23, -1), 10, 9]},
        ],
        "seeds": ["", "2026", "daily:t20i:2026-11-29", "lords", " 42 "],
        "games": [
            {"deck": "t20i", "seed": "2026", "rule": "maximums", "drops": "0,1,2/11/12"},
            *[
                {"deck": "t20i", "seed": str(s), "rule": r.value, "drops": DROPS[s % len(DROPS)]}
                for s in range(1, 6)
                for r in RULES
            ],
        ],
    }
    out = run_page(page, spec)
    assert out["dice"][0]["u64"] == [
        "0xe220a8397b1dcdaf",
        "0x6e789e6aa1b965f4",
        "0x06c45d188009454f",
    ]
    assert out["dice"][1]["below"][:3] == [34, 18, 25] and out["dice"][1]["below"][-2:] == [3, 5]
    d = Dice(2026)
    assert out["dice"][1]["below"] == [d.below(n) for n in [*range(40, 23, -1), 10, 9]]
    assert out["seeds"] == [str(parse_seed(t)) for t in spec["seeds"]]  # type: ignore[attr-defined]
    assert out["seeds"][0] == str(seed_from_text("")) == str(0xE3B0C44298FC1C14)
    assert out["seeds"][2] == str(8592157371269499378)
    deck = Deck("t20i", "example", cards60.cards)
    assert out["games"][0]["code"] == "AQNQ2FjgAAAAAAAAB-rAOQACAAAQkMUP"
    for got, want in zip(out["games"], spec["games"], strict=True):  # type: ignore[arg-type]
        assert got == _expected(deck, parse_seed(want["seed"]), Rule(want["rule"]), want["drops"])
    forty = deal(synthetic_deck(40, 1), 2026)
    assert forty.indices[:3] == (34, 19, 27)


def test_every_deck_and_rule_agrees_and_codes_cross_over(page: Path) -> None:
    """Real decks, every Rule, dailies: same deal, XI, score, grade, code and resemblance
    (law 4.04); codes cross over."""
    python_code = encode(
        play_solo(deal(load_deck("odi"), 77), Rule.WICKETS, Decisions.from_text("1,2"))
    )
    games = [
        {"deck": name, "seed": f"ground-{i}", "rule": RULES[(i + j) % 10].value,
         "drops": DROPS[(i + j) % len(DROPS)]}
        for j, name in enumerate(DECK_NAMES) for i in range(4)
    ] + [{"deck": name, "day": "2026-12-01", "drops": "0,1"} for name in DECK_NAMES]  # fmt: skip
    spec = {
        "games": games,
        "replays": [python_code, python_code[:-1] + "A"],
        "play": {"deck": "test", "seed": "the page", "windows": [[0, 3], [11], [4]]},
    }
    out = run_page(page, spec)
    for got, want in zip(out["games"], games, strict=True):
        deck = load_deck(want["deck"])
        if "day" in want:
            seed, rule = daily_seed(want["deck"], want["day"]), None
        else:
            seed, rule = parse_seed(want["seed"]), Rule(want["rule"])
        assert got == _expected(deck, seed, rule, want["drops"]), want
    assert out["replays"][0]["code"] == python_code
    assert "does not check out" in out["replays"][1]["error"]
    # A code the page made by play (ticks, drops, naming) replays in `pbm h6 replay`.
    made = out["page"]
    result = CliRunner().invoke(main, ["h6", "replay", made["code"], "--json"])
    assert result.exit_code == 0, result.output
    replayed = json.loads(result.output)
    assert f"{replayed['grade']:.1f}" == made["grade"]
    assert replayed["resemblance"]["match"]["name"] == made["resembles"]
    assert replayed["decisions"] == "0,3/11/4"


@pytest.mark.parametrize("width", [390, 1280])
def test_the_ground_at_phone_and_desk_width(page: Path, width: int) -> None:
    """In Chromium at 390 and 1,280 px: no sideways scrolling, every card of the hand and of
    the XI carries its fingerprint (the rays the engine's DeckScale gives), the attack is
    marked, a fourth tick is refused with a word, the deck menu shows the deck in play, and
    a scripted game (deal, tick, drop, name) gives the engine's grade and code; a Daily XI
    says so and prints the AVERAGES line; a replay code in the challenge box says what it is."""
    from engine.hitforsix.post import encode_match
    from engine.hitforsix.scale import DeckScale
    from engine.hitforsix.testmatch import auto_match

    day = "2026-12-01"
    match = auto_match(load_deck("odi"), 5, 2, max_overs=2)
    spec = {
        "play": {"deck": "test", "seed": "", "daily": day, "overtick": True,
                 "windows": [[0, 3], [11], [4]]},
        "matchcode": encode_match(match, load_deck("odi")),
    }  # fmt: skip
    out = run_page(page, spec, width=width)
    for shown in (out["hand"], out["result"]):
        assert shown["width"] == width and shown["scroll"] <= width, shown
        assert shown["cards"] == 11 and shown["prints"] == 11
        assert shown["attack"] == 5
        assert shown["deck"] == "test"
    deck = load_deck("test")
    d = deal(deck, daily_seed("test", day))
    scale = DeckScale.of(deck.cards)
    for card in out["hand"]["rays"]:
        assert card["rays"] == [f"{r:.3f}" for r in scale.rays(d.cards[card["p"]])]
    assert "The Daily XI of 2026-12-01" in out["hand"]["note"]
    assert "drops at most 3" in out["overtick"]["status"] and out["overtick"]["ticked"] == 3
    game = play_solo(d, d.rule, Decisions.from_text("0,3/11/4"))
    assert out["page"]["grade"] == f"{game.grade.grade:.1f}"
    assert out["page"]["code"] == encode(game)
    assert f"AVERAGES {encode(game)}" in out["page"]["averages"]
    assert "replay code" in out["matchcode"] and "pbm h6 replay" in out["matchcode"]
