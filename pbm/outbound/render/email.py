"""Email templates: ``templates/email/<kind>/{subject.txt, body.txt}`` and, for a kind that
has one, ``body.html``: the HTML twin, rendered from the same context (never converted from
the text), in the layout of ``templates/email/_base.html``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import TemplateNotFound

from pbm.outbound.render.env import environment, oneline, templates_dir
from pbm.outbound.render.html import within_limit
from pbm.outbound.render.renderer import renderer
from pbm.outbound.render.wrap import SOFT, flowing

__all__ = ["RenderedEmail", "compile_templates", "email_kinds", "has_html", "render_email"]


@dataclass(frozen=True, slots=True)
class RenderedEmail:
    """A rendered email: one-line subject and plain-text body, as written (``text``) and as
    sent (``flowed``: RFC 3676 ``format=flowed``, paragraphs a reader may fill to its width);
    ``html``, the HTML twin with its styles inline, when the kind has one."""

    kind: str
    subject: str
    text: str
    flowed: str
    html: str | None = None


def render_email(kind: str, ctx: dict[str, Any]) -> RenderedEmail:
    """Render the templates of one email kind with ``ctx`` (missing variables raise)."""
    env = environment()
    subject = env.get_template(f"email/{kind}/subject.txt").render(ctx)
    with flowing():
        body = env.get_template(f"email/{kind}/body.txt").render(ctx).rstrip() + "\n"
    # The subject becomes a header: no line breaks can survive, whatever a player chose.
    subject = oneline(subject)
    html = None
    if has_html(kind):
        html = renderer().html(kind, {**ctx, "mail_subject": subject})
        if not within_limit(html):
            html = None
    flowed = renderer().flowed(body, SOFT)
    return RenderedEmail(kind, subject, body.replace(SOFT, ""), flowed, html)


@cache
def has_html(kind: str) -> bool:
    """Whether email ``kind`` has an HTML twin (templates change only with a release)."""
    try:
        environment().get_template(f"email/{kind}/body.html")
    except TemplateNotFound:
        return False
    return True


def email_kinds() -> list[str]:
    """Every email kind with templates."""
    root = templates_dir() / "email"
    return sorted(p.name for p in root.iterdir() if (p / "body.txt").is_file())


def compile_templates() -> int:
    """Compile every mail template now (the daemon's warm-up), the layouts and pieces they
    extend and include too, so no mail waits for its kind's first compile (some tens of
    milliseconds: the first answer of each kind); returns how many."""
    return renderer().compile()
