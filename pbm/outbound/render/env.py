"""The single Jinja environment: strict undefined, autoescape for HTML, found in both layouts.

Templates live at the top of the source tree (``templates/``); the wheel installs the same
folder as ``pbm/templates`` (a ``package-dir`` mapping in ``pyproject.toml``). The installed
copy wins when present, so an installed ``pbm`` never reads a stray checkout.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.ext import Extension

from pbm.outbound.render.faults import fault, fault_text
from pbm.outbound.render.tables import KEY as H6_KEY
from pbm.outbound.render.tables import card_table, name_lines, squad_lines
from pbm.outbound.render.wrap import (
    WIDTH,
    center,
    nobreak,
    wrap,
    wrap_lines,
    wrap_list,
    wrap_orders,
)

__all__ = ["environment", "make_environment", "oneline", "templates_dir"]

_PACKAGE_DIR = Path(__file__).resolve().parents[2]
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")


def templates_dir() -> Path:
    """The templates folder: ``pbm/templates`` when installed, ``templates/`` in a checkout."""
    installed = _PACKAGE_DIR / "templates"
    if (installed / "email").is_dir():
        return installed
    checkout = _PACKAGE_DIR.parent / "templates"
    if (checkout / "email").is_dir():
        return checkout
    raise FileNotFoundError(f"no templates in {installed} or {checkout}")


def oneline(value: object) -> str:
    """Text safe for one line (a header, a table cell): control characters become spaces."""
    return " ".join(_CONTROL.sub(" ", str(value)).split())


@cache
def environment() -> Environment:
    """The one Environment every template is rendered with: every mail's and the zine's
    (``templates/email/``, ``templates/zine/``), at one width (:data:`WIDTH`)."""
    return make_environment(templates_dir())


#: What ``x.name`` finds on a plain dict before its items: the type's own attributes (a
#: dict has no others).
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(Environment):
    """Jinja's Environment, reading ``x.name`` on a plain dict (a template's rows and
    contexts) as its item at once: Jinja asks for the attribute first, and the AttributeError
    of each cell a squad table or a list of changes reads was a fifth of rendering a naming
    answer. What it finds is Jinja's: a dict's own attributes (``items``, ``get``...) still
    come first, anything else (an object, a missing key) goes Jinja's way."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def make_environment(root: Path, extensions: Sequence[type[Extension]] = ()) -> Environment:
    """An Environment of the templates at ``root`` with pbm's filters, strict and autoescaped
    (:func:`environment`'s; a renderer makes its own with ``extensions``)."""
    env = _Environment(
        loader=FileSystemLoader(str(root)),
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html", "htm", "xml"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # Templates change only with a release: compiled once, never stat()ed again (two
        # stats a reply otherwise).
        auto_reload=False,
        extensions=list(extensions),
    )
    env.filters["oneline"] = oneline
    env.filters["card_table"] = card_table
    env.filters["squad_lines"] = squad_lines
    env.filters["name_lines"] = name_lines
    env.filters["center"] = center
    env.filters["nobreak"] = nobreak
    env.filters["wrap"] = wrap
    env.filters["wrap_lines"] = wrap_lines
    env.filters["wrap_list"] = wrap_list
    env.filters["wrap_orders"] = wrap_orders
    env.filters["fault"] = fault
    env.filters["fault_text"] = fault_text
    env.globals["h6_key"] = H6_KEY
    env.globals["rule"] = lambda ch: ch * WIDTH
    return env
