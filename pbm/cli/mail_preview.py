"""``pbm mail preview [KIND] --out DIR``: every kind of mail (or one) as ``.eml`` and
``.html``, from made-up data, for a GM to look at before players do (and for the tests that
read each mail as a player's client shows it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pbm.core.clock import FixedClock
from pbm.core.config import Config, DatabaseConfig, GmConfig, SecurityConfig, ServerConfig
from pbm.games.flungo.previews import contexts as flungo_contexts
from pbm.games.hitforsix import HitForSix
from pbm.games.hitforsix.card_images import hand_images
from pbm.games.hitforsix.previews import contexts as hitforsix_contexts
from pbm.outbound.previews import contexts as own_contexts
from pbm.outbound.render import email_kinds
from pbm.outbound.replies import compose_mail

__all__ = ["preview_contexts", "register", "sender_of", "write_previews"]

PLAYER = "ann@players.test"


def preview_contexts() -> dict[str, dict[str, Any]]:
    """Every mail kind's made-up context, by kind: pbm's own and each game's."""
    return {**own_contexts(), **flungo_contexts(), **hitforsix_contexts()}


def sender_of(kind: str) -> str | None:
    """The name mail of ``kind`` is from and signed with, as its game sends it (Hit for Six's
    kinds, ``h6-``: "Hit for Six"; None: the server's own)."""
    return HitForSix.sender_name if kind.startswith("h6-") else None


def preview_config() -> Config:
    """The made-up server the previews come from."""
    return Config(
        server=ServerConfig(address="pbm@pbm.test"),
        database=DatabaseConfig(url="sqlite://"),
        gm=GmConfig(address="gm@pbm.test", secret="preview-only-gm-secret"),
        # made up, and used for nothing: a preview derives no secret
        security=SecurityConfig(secret_key="preview-only-not-a-key"),
    )


def write_previews(out: Path, kinds: list[str] | None = None) -> list[Path]:
    """Write ``<kind>.eml`` (the message as queued) and ``<kind>.html`` (its HTML part, for a
    kind that has one) into ``out`` for each of ``kinds`` (all by default); the paths written."""
    contexts = preview_contexts()
    config = preview_config()
    clock = FixedClock()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in kinds or email_kinds():
        gm = kind.startswith("gm-") or kind.endswith("digest")
        to = config.gm.address if gm else PLAYER
        # a Hit for Six hand's cards are pictures sent beside the HTML
        images = hand_images(kind, contexts[kind])
        composed = compose_mail(
            config, clock, kind=kind, to=to, ctx=contexts[kind], images=images,
            from_name=sender_of(kind),
        )  # fmt: skip
        eml = out / f"{kind}.eml"
        eml.write_bytes(composed.raw)
        written.append(eml)
        html = _html_part(composed.raw)
        if html is not None:
            for image in images:  # beside the page, so a browser shows what a client would
                (out / image.filename).write_bytes(image.data)
                html = html.replace(f"cid:{image.cid}", image.filename)
            page = out / f"{kind}.html"
            page.write_text(html, encoding="utf-8")
            written.append(page)
    return written


def _html_part(raw: bytes) -> str | None:
    from email import message_from_bytes, policy

    msg = message_from_bytes(raw, policy=policy.default)
    for part in msg.walk():
        if part.get_content_type() == "text/html":
            return str(part.get_content())
    return None


@click.command("preview")
@click.argument("kind", required=False)
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="Folder to write the .eml and .html files into.",
)
def preview(kind: str | None, out: Path) -> None:
    """Write every kind of mail (or KIND) as .eml and .html, from made-up data."""
    kinds = email_kinds()
    if kind is not None and kind not in kinds:
        raise click.BadParameter(f"no mail kind {kind!r}; the kinds: {', '.join(kinds)}")
    for path in write_previews(out, [kind] if kind else None):
        click.echo(str(path))


def register(group: click.Group) -> None:
    """Add ``preview`` to the ``pbm mail`` group."""
    group.add_command(preview)
