"""CPU per mail of the stage "parse MIME + route": ``understand`` and ``dispatch.route`` on
the three kinds of mail ``bench/intake.py`` sends (made here the same way, no server) and on
every sample mail in the repository (``tests/data/eml``: Gmail, Outlook, iPhone, HTML-only...).

Run from the repository root (or with ``PYTHONPATH`` set to another tree, to compare):

    .venv/bin/python bench/understand_cost.py [--rounds 300] [--profile KIND]

Prints the median CPU ms a mail over ``--rounds`` rounds (``time.process_time``, the figure on a
shared machine) and the load average; ``--profile`` prints cProfile's top functions for one kind.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import statistics
import time
from email.message import EmailMessage
from pathlib import Path

from pbm.inbound.dispatch import route
from pbm.mail.understand import understand

ROOT = Path(__file__).parents[1]
OWN = "pbm@example.test"
KEY = "bench-secret-key-bench-secret-key"
GAMES = {f"C{i:03d}": "flungo" for i in range(4)}
SECRET = "ABCD-EFGH-JKLM"


def _match_orders() -> str:
    text = (ROOT / "bench" / "_match_orders.py").read_text()
    return text.split('MATCH_ORDERS = """', 1)[1].split('"""', 1)[0]


def _mail(frm: str, subject: str, body: str, mid: str) -> bytes:
    m = EmailMessage()
    m["From"] = frm
    m["To"] = OWN
    m["Subject"] = subject
    m["Message-ID"] = mid
    m.set_content(body)
    return m.as_bytes().replace(b"\n", b"\r\n")


def kinds() -> dict[str, list[bytes]]:
    """The intake bench's three kinds (20 mails each) and the repository's sample mails."""
    codes = list(GAMES)
    join, naming, orders = [], [], []
    for i in range(20):
        code = codes[i % len(codes)]
        addr = f"Player {i} <p{i}@club{i % 97}.test>"
        join.append(_mail(addr, f"[{code}] join", "JOIN\n", f"<join-{i}@players.test>"))
        lines = [f"SECRET {SECRET}", f"TEAM NAME Team {i}"]
        lines += [f"NAME {k} Celebrity {i}-{k}" for k in range(1, 19)]
        body = "\n".join(lines) + "\n"
        naming.append(_mail(addr, f"Re: [{code}] names", body, f"<names-{i}@players.test>"))
        body = f"SECRET {SECRET}\n" + re.sub(r"\{(\d+)\}", rf"Celebrity {i}-\1", _match_orders())
        orders.append(_mail(addr, f"Re: [{code}] orders", body, f"<orders-{i}@players.test>"))
    out = {"JOIN": join, "naming orders": naming, "match orders": orders}
    for path in sorted((ROOT / "tests" / "data" / "eml").glob("*.eml")):
        out[path.stem] = [path.read_bytes()]
    return out


def stage(raw: bytes) -> object:
    """What the pipeline's stage does with one mail's bytes."""
    mail = understand(raw, own_address=OWN, envelope_from=None, envelope_to=(), keys=(KEY,))
    return route(mail, OWN, GAMES, "gm@example.test")


def cpu_ms(mails: list[bytes], rounds: int) -> float:
    """Median CPU ms a mail over ``rounds`` passes of ``mails``."""
    for raw in mails:
        stage(raw)  # warm: imports, compiled patterns
    per = []
    for _ in range(rounds):
        start = time.process_time()
        for raw in mails:
            stage(raw)
        per.append((time.process_time() - start) / len(mails))
    return statistics.median(per) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--profile", metavar="KIND")
    parser.add_argument("--only", help="a comma-separated list of kinds")
    args = parser.parse_args()
    every = kinds()
    if args.profile:
        mails = every[args.profile]
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.rounds):
            for raw in mails:
                stage(raw)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    chosen = args.only.split(",") if args.only else list(every)
    print(f"load {os.getloadavg()[0]:.2f}, {args.rounds} rounds, CPU ms a mail (median)")
    for name in chosen:
        ms = cpu_ms(every[name], args.rounds if len(every[name]) > 1 else args.rounds * 5)
        print(f"{name:24s} {ms:7.3f}")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
