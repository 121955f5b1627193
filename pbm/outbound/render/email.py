"""Email templates: ``templates/email/<kind>/{subject.txt, body.txt}``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbm.mail.flowed import flow
from pbm.outbound.render.env import environment, oneline, templates_dir
from pbm.outbound.render.wrap import SOFT, flowing

__all__ = ["RenderedEmail", "email_kinds", "render_email"]


@dataclass(frozen=True, slots=True)
class RenderedEmail:
    """A rendered email: one-line subject and plain-text body, as written (``text``) and as
    sent (``flowed``: RFC 3676 ``format=flowed``, paragraphs a reader may fill to its width)."""

    kind: str
    subject: str
    text: str
    flowed: str


def render_email(kind: str, ctx: dict[str, Any]) -> RenderedEmail:
    """Render the templates of one email kind with ``ctx`` (missing variables raise)."""
    env = environment()
    subject = env.get_template(f"email/{kind}/subject.txt").render(ctx)
    with flowing():
        body = env.get_template(f"email/{kind}/body.txt").render(ctx).rstrip() + "\n"
    # The subject becomes a header: no line breaks can survive, whatever a player chose.
    return RenderedEmail(kind, oneline(subject), body.replace(SOFT, ""), flow(body, SOFT))


def email_kinds() -> list[str]:
    """Every email kind with templates."""
    root = templates_dir() / "email"
    return sorted(p.name for p in root.iterdir() if (p / "body.txt").is_file())
