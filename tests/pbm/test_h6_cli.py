"""``pbm h6``: deal, play, replay and Test Matches at the command line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner, Result

from pbm.cli import main

CARD_KEYS = {
    "id", "name", "initials", "country", "matches", "runs", "dismissals", "balls_faced",
    "fours", "sixes", "balls_bowled", "runs_conceded", "wickets",
}  # fmt: skip


def _run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, ["h6", *args], input=input)


def _json(*args: str) -> Any:
    result = _run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("deck", ["t20i", "odi", "test", "associates", "t20i-women", "odi-women"])
def test_deal_json(deck: str) -> None:
    """deal --json gives deck, seed, rule, line and 17 cards with every career field."""
    data = _json("deal", "--deck", deck, "--seed", "42")
    assert set(data) == {"deck", "seed", "rule", "line", "cards"}
    assert data["deck"] == deck and data["seed"] == 42
    assert len(data["cards"]) == 17 and all(set(c) == CARD_KEYS for c in data["cards"])
    assert len({c["id"] for c in data["cards"]}) == 17


def test_deal_is_reproducible_and_text_seeds_work() -> None:
    """The same seed deals the same cards; a text seed is accepted."""
    assert _json("deal", "--seed", "lords") == _json("deal", "--seed", "lords")
    assert _json("deal", "--seed", "1")["cards"] != _json("deal", "--seed", "2")["cards"]


def test_daily_deal() -> None:
    """--daily deals the day's shared XI; a bad date is refused."""
    a = _json("deal", "--deck", "odi", "--daily", "2026-11-29")
    assert a == _json("deal", "--deck", "odi", "--daily", "2026-11-29")
    bad = _run("deal", "--daily", "29-11-2026")
    assert bad.exit_code != 0 and "YYYY-MM-DD" in bad.output


def test_deal_table() -> None:
    """Without --json the deal is a readable table with the Rule and the line."""
    result = _run("deal", "--seed", "42")
    assert result.exit_code == 0
    assert "Replacements, in order" in result.output and "Rule: " in result.output


def test_play_json_and_replay_agree() -> None:
    """play --json gives the XI, rule, score, grade, resemblance and a code that replays."""
    data = _json("play", "--deck", "odi", "--seed", "7", "--rule", "maximums", "--drops", "0,4//")
    assert {"xi", "rule", "score", "grade", "resemblance", "code"} <= set(data)
    assert data["xi"] == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]
    assert data["rule"] == "maximums" and 0 <= data["grade"] <= 100
    assert data["resemblance"]["match"]["name"]
    again = _json("replay", data["code"])
    assert again == data


@pytest.mark.parametrize(
    ("drops", "message"),
    [("0,1,2,3", "at most 3"), ("11", "not held"), ("a", "not a deal position"),
     ("0/0", "not held"), ("1/2/3/4", "3 windows")],
)  # fmt: skip
def test_play_refuses_illegal_drops(drops: str, message: str) -> None:
    """An illegal drop is refused with a clear message and a non-zero exit."""
    result = _run("play", "--seed", "7", "--drops", drops)
    assert result.exit_code != 0
    assert message in result.output


def test_play_every_rule() -> None:
    """Every Rule name is accepted; The Toss reveals the Rule that judged."""
    for rule in ("the-average", "runs-on-the-board", "strike-rate", "maximums",
                 "occupy-the-crease", "wickets", "the-economy", "bowling-average",
                 "six-and-out", "the-toss"):  # fmt: skip
        data = _json("play", "--seed", "3", "--rule", rule, "--drops", "0,1,2/3,4/5")
        assert data["rule"] == rule
        assert data["judged_by"] != "the-toss"


def test_play_readable_output() -> None:
    """Without --json play prints the XI, grade, resemblance and code."""
    result = _run("play", "--seed", "7", "--drops", "0/1/2")
    assert result.exit_code == 0
    for needle in ("Your XI", "Grade:", "most resembles", "Challenge code:"):
        assert needle in result.output


def test_interactive_game_from_stdin() -> None:
    """Without --drops the game prompts each window; illegal input is re-asked."""
    feed = "0,1,2,3\n0,1,2\n11\n\n"
    result = _run("play", "--seed", "7", "--rule", "wickets", input=feed)
    assert result.exit_code == 0, result.output
    assert "at most 3" in result.output
    assert "Window 3" in result.output and "Challenge code:" in result.output
    code = result.output.rsplit("Challenge code:", 1)[1].split()[0]
    replayed = _json("replay", code)
    scripted = _json("play", "--seed", "7", "--rule", "wickets", "--drops", "0,1,2/11/")
    assert replayed["xi"] == scripted["xi"] and replayed["grade"] == scripted["grade"]


def test_interactive_error_shows_the_input_as_typed() -> None:
    """A bad answer is quoted back literally, even when it looks like terminal markup."""
    result = _run("play", "--seed", "7", input="[bold]\nname\n")
    assert result.exit_code == 0
    assert "'[bold]' is no card of the deal" in result.output


def test_interactive_name_early() -> None:
    """Answering 'name' names the XI at once: the dealt eleven."""
    result = _run("play", "--seed", "7", input="name\n")
    assert result.exit_code == 0
    code = result.output.rsplit("Challenge code:", 1)[1].split()[0]
    assert _json("replay", code)["xi"] == list(range(11))


def test_replay_rejects_tampered_code() -> None:
    """A tampered code is refused with a clear message."""
    code = _json("play", "--seed", "7", "--drops", "0")["code"]
    tampered = code[:-1] + ("A" if code[-1] != "A" else "B")
    result = _run("replay", tampered)
    assert result.exit_code != 0 and "altered" in result.output
    assert "32 characters" in _run("replay", "xyz").output


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_test_match_json(seats: int) -> None:
    """test --auto --json plays to the target; the champion has won exactly ten overs."""
    data = _json("test", "--seats", str(seats), "--seed", "11", "--auto")
    assert data["seats"] == seats and data["target"] == 10 * (seats - 1)
    champ = data["champion"]
    assert champ is not None
    assert [s["seat"] for s in data["standings"]] == list(range(1, seats + 1))
    assert data["standings"][champ - 1]["overs_won"] == 10
    assert data["standings"][champ - 1]["wickets_taken"] == data["target"]
    assert all({"rule", "grades", "winner"} <= set(o) for o in data["overs"])
    assert sum(o["winner"] == champ for o in data["overs"]) == 10
    assert _json("test", "--seats", str(seats), "--seed", "11", "--auto") == data


def test_test_match_seats_count_from_one_in_text_and_json() -> None:
    """Seats are numbered 1..N alike in test --json (winner, standings, champion) and the text."""
    data = _json("test", "--seats", "2", "--seed", "11", "--auto")
    winners = {o["winner"] for o in data["overs"]} - {None}
    assert winners <= {1, 2} and data["champion"] in {1, 2}
    text = _run("test", "--seats", "2", "--seed", "11", "--auto").output
    assert f"Champion: Seat {data['champion']} " in text
    assert "Seat 0" not in text


def test_test_match_needs_auto() -> None:
    """Only automatic seats play at the terminal; the text table prints otherwise."""
    assert _run("test", "--seed", "1").exit_code != 0
    result = _run("test", "--seed", "1", "--auto")
    assert result.exit_code == 0 and "Champion: Seat" in result.output


def test_card_command_is_attached(tmp_path: Any) -> None:
    """The decks' card command hangs off the h6 group: ``pbm h6 card NAME --svg FILE``."""
    name = _json("deal", "--seed", "42")["cards"][0]["id"]
    out = tmp_path / "card.svg"
    result = _run("card", name, "--svg", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().lstrip().startswith("<")


def test_interactive_toss_is_concealed_until_named() -> None:
    """Under The Toss the live game hides the Rule until the XI is named, then reveals it."""
    result = _run("play", "--seed", "7", "--rule", "the-toss", input="name\n")
    assert result.exit_code == 0
    before, after = result.output.split("Your XI", 1)
    judged = _json("play", "--seed", "7", "--rule", "the-toss", "--drops", "")["judged_by"]
    title = judged.replace("-", " ")
    assert "concealed" in before and title not in before.lower()
    assert "the rule revealed" in after.lower() and title in after.lower()


def _code(drops: str) -> str:
    out = _run(
        "play", "--deck", "odi", "--seed", "7", "--rule", "the-toss", "--drops", drops, "--json"
    )
    assert out.exit_code == 0, out.output
    code: str = json.loads(out.output)["code"]
    return code


def test_challenge_same_decisions_tie_the_ghost() -> None:
    """Playing a code's own decisions against its ghost is a tie, grade for grade."""
    code = _code("1,3,4/11/12")
    out = _run("challenge", code, "--drops", "1,3,4/11/12", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["winner"] is None
    assert data["ghost"]["grade"] == data["rival"]["grade"]
    assert data["margin"] == 0


def test_challenge_other_decisions_decide_a_winner() -> None:
    """Different decisions on the ghost's deal give a winner and the margin between grades."""
    code = _code("1,3,4/11/12")
    data = json.loads(_run("challenge", code, "--drops", "", "--json").output)
    ghost, rival = data["ghost"]["grade"], data["rival"]["grade"]
    assert ghost != rival
    assert data["winner"] == ("rival" if rival > ghost else "ghost")
    assert data["margin"] == pytest.approx(rival - ghost)
    assert data["ghost"]["xi"] != data["rival"]["xi"]


def test_challenge_interactive_and_refusals() -> None:
    """The rival may play live; illegal drops and tampered codes are refused with a message."""
    code = _code("1,3,4/11/12")
    live = _run("challenge", code, input="0,1\n5\nname\n")
    assert live.exit_code == 0, live.output
    assert "Ghost 91.3" in live.output
    bad = _run("challenge", code, "--drops", "0,1,2,3")
    assert bad.exit_code != 0
    assert "drops at most 3" in bad.output
    tampered = _run("challenge", code[:-1] + ("A" if code[-1] != "A" else "B"), "--drops", "")
    assert tampered.exit_code != 0
    assert "does not check out" in tampered.output


def test_deal_with_no_option_is_todays_daily() -> None:
    """`deal` with neither --seed nor --daily deals today's Daily XI (law 7.01)."""
    from pbm.cli.h6 import today

    assert _json("deal", "--deck", "odi") == _json("deal", "--deck", "odi", "--daily", today())
    both = _run("deal", "--seed", "1", "--daily", "2026-11-29")
    assert both.exit_code != 0 and "not both" in both.output


def _deal_cards(seed: str = "7") -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = _json("deal", "--seed", seed)["cards"]
    return cards


def test_interactive_takes_names_and_initials() -> None:
    """A window may name men by surname or by initials as well as by position."""
    cards = _deal_cards()
    surname = cards[0]["name"].split()[-1]
    if sum(surname.lower() in c["name"].lower().split() for c in cards) > 1:  # pragma: no cover
        surname = cards[0]["name"]
    feed = f"{surname}, {cards[1]['initials']}, 2\nname\n"
    result = _run("play", "--seed", "7", "--rule", "wickets", input=feed)
    assert result.exit_code == 0, result.output
    code = result.output.rsplit("Challenge code:", 1)[1].split()[0]
    assert _json("replay", code)["decisions"] == "0,1,2"


def test_interactive_quit_leaves_without_a_result() -> None:
    """'quit' leaves the over: no grade, no code, and a plain goodbye."""
    result = _run("play", "--seed", "7", input="0\nquit\n")
    assert result.exit_code == 0
    assert "You left the over" in result.output and "Challenge code:" not in result.output


def test_interactive_hints_show_only_this_windows_syntax() -> None:
    """An error's hint is this window's syntax: its cap, no '/' and no other window's form."""
    result = _run("play", "--seed", "7", input="0,1,2,3\n0\n11,1,2\nname\n")
    assert result.exit_code == 0, result.output
    hints = [line for line in result.output.splitlines() if line.startswith("window ")]
    assert hints[0].startswith("window 1: drop up to 3") and "/" not in hints[0]
    assert hints[1].startswith("window 2: drop up to 2") and "/" not in hints[1]
    assert "e.g. 0,4,7/11,2/12" not in result.output


def test_test_match_without_a_seed_picks_one_and_prints_a_replay_code() -> None:
    """`test --auto` without --seed picks a seed; its replay code replays to the same match."""
    first = _json("test", "--seats", "2", "--auto")
    again = _json("replay", first["replay_code"])
    assert again == first
    assert first["seed"] != _json("test", "--seats", "2", "--auto")["seed"]


def test_seats_played_by_hand_at_the_terminal() -> None:
    """`test --hand 1` plays seat 1 at the terminal, sealed, against an automatic seat 2."""
    feed = "name\n" * 3 + "quit\n"
    result = _run("test", "--seats", "2", "--seed", "5", "--hand", "1", input=feed)
    assert result.exit_code == 0, result.output
    assert "Over 1 — Seat 1 bats" in result.output and "Over 3 — Seat 1 bats" in result.output
    assert "Seat 1 left the match after 3 overs" in result.output
    code = result.output.rsplit("Replay code:", 1)[1].split()[0]
    replayed = _json("replay", code)
    assert len(replayed["overs"]) == 3
    assert all(o["decisions"][0] == "" for o in replayed["overs"])
    bad = _run("test", "--seats", "2", "--hand", "3", input="quit\n")
    assert bad.exit_code != 0 and "seats are 1 to 2" in bad.output
