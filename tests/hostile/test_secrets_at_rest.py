"""'The database alone holds no secret in clear', checked the hard way: every stored body of
every table, decoded in every transfer encoding, and the logs, after mail that carries the
secret every way issue 8 found (base64, quoted-printable split by a soft break, a quoted
welcome mail, lower case, a second SECRET line, the Subject, a bounce returning the welcome
mail, a dead letter, a flagged sentence), through the real doors."""

from __future__ import annotations

import base64
import contextlib
import email
import json
from email import policy
from email.header import decode_header
from typing import Any

import pytest
from sqlalchemy import select

from pbm.db.models import Base, InboundMail
from pbm.db.session import transaction
from pbm.inbound.context import Handled, MailContext
from pbm.secrets.at_rest import Sealer
from tests.hostile.conftest import Doors, eml
from tests.hostile.test_abuse import dsn
from tests.hostile.test_doors import SECRET
from tests.pbm.conftest import GM, GM_SECRET, SECRET_KEY


def decodings(value: Any) -> list[str]:
    """``value`` as every text it can be read as: raw, each MIME part decoded, each header
    decoded (RFC 2047), JSON dumped."""
    if value is None:
        return []
    if isinstance(value, (dict, list)):
        return [json.dumps(value, ensure_ascii=False)]
    if isinstance(value, str):
        return [value]
    if not isinstance(value, bytes):
        return [str(value)]
    out = [value.decode("utf-8", "replace")]
    msg = email.message_from_bytes(value, policy=policy.compat32)
    for part in msg.walk():
        for _, header in part.items():
            for chunk, charset in decode_header(str(header)):
                if isinstance(chunk, bytes):
                    out.append(chunk.decode(charset or "utf-8", "replace"))
                else:
                    out.append(chunk)
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes):
            out.append(payload.decode("utf-8", "replace"))
            with contextlib.suppress(ValueError):
                out.append(base64.b64decode(payload, validate=True).decode("utf-8", "replace"))
    return out


def test_no_secret_in_clear_anywhere_at_rest(
    doors: Doors, demo: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """After every way of sending a secret, no table row and no log line holds it in clear,
    in any encoding or case; a dead letter is still retried, from its sealed copy."""
    from pbm.ops.logs import configure_logging

    configure_logging("json", "info", doors.app.config.secrets())
    doors.smtp(eml("JOIN\n"))
    [welcome] = doors.run()
    m = SECRET.search(welcome.text)
    assert m
    secret = m.group(1)
    b64 = base64.encodebytes(f"SECRET {secret}\nTEAM NAME Base Sixty\n".encode()).decode()
    qp = f"SECRET {secret[:7]}=\nsplit{secret[7:]}\nTEAM NAME Quoted\n".replace("split", "")
    mails = [
        eml(b64, subject="[DEMO] b64", cte="base64"),
        eml(qp, subject="[DEMO] qp", cte="quoted-printable"),
        eml(f"TEAM NAME Quoting\n\n> YOUR SECRET: {secret}\n", subject="Re: [DEMO] welcome"),
        eml(f"SECRET {secret.lower()}\nTEAM NAME Lower\n", subject="[DEMO] lower"),
        eml(f"SECRET WRONG-GUESS\nSECRET {secret}\nTEAM NAME Twice\n", subject="[DEMO] twice"),
        eml(f"SECRET {secret}\nTEAM NAME Subj\n", subject=f"[DEMO] SECRET {secret}"),
        eml(f"SECRET {secret}\ntoss: bat\nafter 10 overs all shout {secret.replace('-', '')}\n"),
        eml(f"SECRET {GM_SECRET}\nDIGEST\n", frm=GM, subject="digest"),
    ]
    for raw in mails:
        assert doors.smtp(raw)[0] == 250
    doors.run()
    returned = welcome.data.decode()
    bounce = dsn("pbm@example.test").replace(
        b"--B--\r\n",
        f"--B\r\nContent-Type: message/rfc822\r\n\r\n{returned}\r\n--B--\r\n".encode(),
    )
    doors.ingest(bounce, "--sender", "")
    # A dead letter: handling blows up, with the secret in the exception's message.
    from pbm.inbound import pipeline

    def boom(ctx: MailContext, _decision: object) -> Handled:
        raise RuntimeError(f"exploded on {ctx.msg.secret}")

    monkeypatch.setattr(pipeline, "execute", boom)
    doors.smtp(eml(f"SECRET {secret}\nTEAM NAME Dead Letter\n", subject="[DEMO] dead"))
    doors.run()
    monkeypatch.undo()
    dead = [m for m in doors.inbound() if m.status == "shunted"]
    assert len(dead) == 1 and dead[0].sealed is not None

    needles = {secret, secret.replace("-", ""), GM_SECRET, "WRONG-GUESS"}
    needles |= {n.lower() for n in needles}
    with transaction(doors.app.sessions) as s:
        for table in Base.metadata.sorted_tables:
            for row in s.execute(select(table)).mappings():
                for column, value in row.items():
                    if column == "sealed" and value is not None:  # ciphertext under the key
                        assert secret.encode() not in value
                        assert secret.encode() in Sealer(SECRET_KEY).unseal(value)
                        continue
                    for text in decodings(value):
                        found = [n for n in needles if n in text or n in text.lower()]
                        assert not found, f"{table.name}.{column}: {found} in {text[:300]!r}"
    result = doors.cli("mail", "retry", str(dead[0].id))
    assert result.exit_code == 0, result.output
    doors.run()
    with transaction(doors.app.sessions) as s:
        retried = s.get(InboundMail, dead[0].id)
        assert retried is not None and retried.status == "applied" and retried.sealed is None
    logs = capsys.readouterr().err
    assert logs.count("\n") > 20
    assert not [n for n in needles if n in logs or n in logs.lower()]


def test_a_secret_hidden_by_the_charset_or_an_encoded_word_is_not_stored(
    doors: Doors, demo: str
) -> None:
    """Through the real SMTP door: the secret spelt in UTF-7's base64 (the bytes show no
    secret shape, the text does), in an encoded-word Subject next to CR/LF, and in a plain
    ASCII body (scrubbed by its bytes, which keep their 7bit form). Every stored raw mail,
    read in its own charset, holds none of them, and each sender gets one answer."""
    doors.smtp(eml("JOIN\n"))
    [welcome] = doors.run()
    m = SECRET.search(welcome.text)
    assert m
    secret = m.group(1)
    utf7 = f"TEAM NAME Seven\nmy code {secret}\n".encode("utf-7").replace(b"-", b"+AC0-")
    assert secret.encode() not in utf7
    word = "=?utf-8?b?" + base64.b64encode(f"code {secret}\r\nBcc: x@evil.test".encode()).decode()
    mails = [
        eml(utf7, subject="[DEMO] seven", content_type="text/plain; charset=utf-7", cte="7bit"),
        eml(f"SECRET {secret}\nTEAM NAME Worded\n", subject=f"[DEMO] {word}?="),
        eml(f"SECRET {secret}\nTEAM NAME Plain\n", subject="[DEMO] plain", cte="7bit"),
    ]
    for raw in mails:
        assert doors.smtp(raw)[0] == 250
    answers = doors.run()
    assert len(answers) == 3 and not [a for a in answers if b"evil.test" in a.data]
    stored = [mail.raw for mail in doors.inbound()[1:]]
    assert len(stored) == 3
    for raw in stored:
        msg = email.message_from_bytes(raw, policy=policy.default)
        texts = [str(msg["Subject"]), raw.decode("ascii", "replace")]
        texts += [
            part.get_content() for part in msg.walk() if part.get_content_maintype() == "text"
        ]
        assert not [t for t in texts if secret in t or secret.lower() in t.lower()]
    assert b"Content-Transfer-Encoding: 7bit" in stored[2]  # not rewritten as base64
