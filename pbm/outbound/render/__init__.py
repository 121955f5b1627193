"""Rendering: the one strict Jinja environment and the email templates."""

from pbm.outbound.render.email import (
    RenderedEmail,
    compile_templates,
    email_kinds,
    has_html,
    render_email,
)
from pbm.outbound.render.env import environment, templates_dir

__all__ = [
    "RenderedEmail",
    "compile_templates",
    "email_kinds",
    "environment",
    "has_html",
    "render_email",
    "templates_dir",
]
