"""The conventions of bulk and automatic mail: RFC 3834's ``Auto-Submitted`` and the list
headers of RFC 2919 (``List-Id``) and RFC 2369 (``List-Unsubscribe``).

* Every mail pbm sends is automatic. ``auto-replied`` is for an answer: a mail that exists
  because its recipient's mail arrived. Everything else pbm sends of its own accord (fixtures,
  reminders, turn reports, digests, the zine, a notice) is ``auto-generated``, and the kinds
  in :data:`GENERATED_KINDS` are so always: a digest the GM asked for with DIGEST is the
  same report as the morning's, not an answer to be threaded as one.
* A competition's bulk mail to its teams (fixtures, reminders, turn reports and the zine:
  :data:`LIST_KINDS`) is list mail: ``List-Id`` names the competition, so a manager's client
  can file or filter it, and ``List-Unsubscribe`` is a ``mailto:`` that pbm itself answers:
  the mail it makes is ``ZINE OFF`` to the competition's plus-address. Unsubscribing stops
  the zine only: a team that plays must get its turn reports, and the answer says so.
"""

from __future__ import annotations

import re

__all__ = [
    "ANSWER",
    "GENERATED",
    "GENERATED_KINDS",
    "LIST_KINDS",
    "auto_submitted",
    "list_headers",
    "unsubscribe_address",
]

ANSWER = "auto-replied"
GENERATED = "auto-generated"

#: The mail kinds sent to every team of a competition: list mail (answers never are).
LIST_KINDS = frozenset({"fixtures", "reminder", "turn-report", "zine"})
#: The kinds that are pbm's own whatever caused them: reports, reminders and digests (the
#: outbox sends them after every answer that is due: ``pbm.outbound.outbox.BULK_KINDS``).
GENERATED_KINDS = LIST_KINDS | {"digest", "turn-digest", "h6-test-reminder"}
_ONE_LINE = 78
_PLAIN_PHRASE = re.compile(r"^[A-Za-z0-9 !#$%&'*+\-/=?^_`{|}~.,:;()]{1,60}$")


def auto_submitted(answer: bool, kind: str = "") -> str:
    """The ``Auto-Submitted`` value of a mail of ``kind`` that answers one (True) or is
    pbm's own."""
    return ANSWER if answer and kind not in GENERATED_KINDS else GENERATED


def unsubscribe_address(server_address: str, code: str) -> str:
    """The competition's plus-address (``pbm+DEMO@host``): mail to it is routed to ``code``."""
    local, _, domain = server_address.partition("@")
    return f"{local.split('+', 1)[0]}+{code}@{domain}"


def list_headers(code: str, name: str, server_address: str, domain: str) -> dict[str, str]:
    """``List-Id`` and ``List-Unsubscribe`` of competition ``code`` (named ``name``), for
    pbm at ``server_address`` whose own domain is ``domain``.

    The list id is ``<code.domain>`` (RFC 2919: a label under a domain pbm's operator holds);
    its phrase is the competition's name when that is plain ASCII, else the code. The
    unsubscribe link asks for ``ZINE OFF`` in the subject: pbm reads it there too, since
    clients that act on the header may not honour a ``body=``."""
    label = f"{code.lower()}.{domain}"
    phrase = name.strip() if _PLAIN_PHRASE.match(name.strip()) else code
    if len(f'List-Id: "{phrase}" <{label}>') > _ONE_LINE:
        phrase = code  # one short header line keeps the composer's fast path for bulk mail
    quoted = phrase.replace("\\", "\\\\").replace('"', '\\"')
    return {
        "List-Id": f'"{quoted}" <{label}>',
        "List-Unsubscribe": f"<mailto:{unsubscribe_address(server_address, code)}"
        "?subject=ZINE%20OFF>",
    }
