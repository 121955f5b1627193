"""What ``understand`` and ``dispatch.route`` make of every sample mail, as plain values: the
record ``test_every_sample_mail_is_understood_as_before.py`` compares with the golden
``tests/data/understood.json``, written by the tree before the stage was made faster.

Write the golden again (only when a change of what a mail is understood as is meant):

    PYTHONPATH=. .venv/bin/python tests/pbm/mail/understood_record.py > tests/data/understood.json
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from pbm.inbound.dispatch import route
from pbm.mail.limits import Oversize, stand_in
from pbm.mail.understand import understand

ROOT = Path(__file__).parents[3]
OWN = "pbm@example.test"
KEYS = ("golden-key-now-golden-key-now-00", "golden-key-before-golden-key-0000")
GAMES = {"DEMO": "flungo", "CCC": "flungo", "C000": "flungo", "HFS1": "hitforsix"}
GM = "gm@example.test"
#: Mails over this many bytes are left to the hostile suites' own bounds.
MAX_SAMPLE = 64 * 1024


def _plain(value: Any) -> Any:
    """``value`` as JSON: long text as its digest, so the golden stays small and readable."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name != "tree"
        }
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, str) and len(value) > 4000:
        return f"sha256:{hashlib.sha256(value.encode('utf-8', 'surrogatepass')).hexdigest()}"
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return repr(value)


def _decision(decision: object) -> str:
    """The decision's repr, a command's handler named rather than placed in memory."""
    return re.sub(r"<function (\S+) at 0x[0-9a-f]+>", r"\1", repr(decision))


def record(raw: bytes, envelope_from: str | None, envelope_to: list[str]) -> dict[str, Any]:
    """What the stage makes of ``raw``: the ``Understood`` value's fields, the MIME tree's
    type, and the route (the flows' view and the decision)."""
    mail = understand(
        raw, own_address=OWN, envelope_from=envelope_from, envelope_to=envelope_to, keys=KEYS
    )
    routed = route(mail, OWN, GAMES, GM)
    tree = mail.email.tree
    return {
        "understood": _plain(mail),
        "tree": None if tree is None else tree.get_content_type(),
        "incoming": _plain(routed.msg),
        "decision": _decision(routed.decision),
    }


def _mail(frm: str, subject: str, body: str, mid: str, extra: str = "") -> bytes:
    head = (
        f"From: {frm}\r\nTo: {OWN}\r\nSubject: {subject}\r\nMessage-ID: {mid}\r\n{extra}"
        "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
        "Content-Transfer-Encoding: 7bit\r\n\r\n"
    )
    return (head + body.replace("\n", "\r\n")).encode()


def samples() -> list[tuple[str, bytes, str | None, list[str]]]:
    """(name, bytes, envelope from, envelope to) of every sample: the repository's mails
    (``tests/data/eml``), the hostile suite's small ones, the intake bench's three kinds, and
    the shapes only the envelope or a door makes (stand-ins, null senders, VERP)."""
    out: list[tuple[str, bytes, str | None, list[str]]] = []
    for path in sorted((ROOT / "tests" / "data" / "eml").glob("*.eml")):
        out.append((f"eml/{path.stem}", path.read_bytes(), None, []))
        out.append((f"eml/{path.stem} (envelope)", path.read_bytes(), "x@y.test", [OWN]))
    from tests.hostile.test_understanding_hostile_mail import CASES

    for name, case in CASES.items():
        if case.size == "small":
            raw = case.make()
            if len(raw) <= MAX_SAMPLE:
                out.append((f"hostile/{name}", raw, None, []))
    orders = (ROOT / "bench" / "_match_orders.py").read_text()
    orders = orders.split('MATCH_ORDERS = """', 1)[1].split('"""', 1)[0]
    orders = re.sub(r"\{(\d+)\}", r"Celebrity 7-\1", orders)
    names = "\n".join(f"NAME {k} Celebrity 7-{k}" for k in range(1, 19))
    player = "Player 7 <p7@club7.test>"
    out += [
        ("intake/JOIN", _mail(player, "[C000] join", "JOIN\n", "<join-7@p.test>"), None, []),
        (
            "intake/naming",
            _mail(
                player, "Re: [C000] names", f"SECRET ABCD-EFGH\nTEAM NAME T7\n{names}\n", "<n@p>"
            ),
            None,
            [],
        ),
        (
            "intake/orders",
            _mail(player, "Re: [C000] orders", f"SECRET ABCD-EFGH\n{orders}", "<o@p.test>"),
            None,
            [],
        ),
        ("null sender", _mail(player, "[DEMO] join", "JOIN\n", "<ns@p.test>"), "<>", [OWN]),
        (
            "plus address, unknown code",
            _mail(player, "[NOPE] join", "JOIN\n", "<pa@p.test>"),
            None,
            ["pbm+nope@example.test", "pbm+hfs1@example.test"],
        ),
        (
            "quoted command only",
            _mail(player, "Re: welcome", "yes please\n\n> JOIN DEMO\n> STATUS\n", "<q@p.test>"),
            None,
            [],
        ),
        (
            "zine off subject",
            _mail(player, "Re: [DEMO] ZINE OFF", "", "<z@p.test>", "List-Id: <x>\r\n"),
            None,
            [],
        ),
        ("zine off subject, person", _mail(player, "Re: ZINE OFF", "\n", "<z2@p.test>"), None, []),
    ]
    head = _mail(player, "[DEMO] orders", "", "<big@p.test>").split(b"\r\n\r\n")[0] + b"\r\n\r\n"
    over = Oversize(2_000_000, 1_048_576, "/var/lib/pbm/too-big/1.eml")
    for i, key in enumerate(KEYS):
        out.append((f"stand-in signed by key {i}", stand_in(head, over, key), None, []))
    out.append(("stand-in forged", stand_in(head, over, "not-ours-not-ours-not-ours"), None, []))
    out.append(("stand-in, null sender", stand_in(head, over, KEYS[0]), "<>", []))
    auto = head.replace(b"MIME-Version", b"Auto-Submitted: auto-replied\r\nMIME-Version")
    out.append(("stand-in of automatic mail", stand_in(auto, over, KEYS[0]), None, []))
    return out


def main() -> None:
    rows = [
        {
            "name": name,
            "raw": base64.b64encode(raw).decode(),
            "envelope_from": frm,
            "envelope_to": to,
            "expected": record(raw, frm, to),
        }
        for name, raw, frm, to in samples()
    ]
    json.dump(rows, sys.stdout, indent=1, ensure_ascii=True, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
