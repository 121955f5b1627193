"""pbm's templates read ``x.name`` on a dict the quick way (its item at once), and find
what Jinja's own Environment finds: a dict's methods before its items, an object's
attributes, a missing name undefined (which the strict environment refuses)."""

from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace

import pytest
from jinja2 import Environment, StrictUndefined, UndefinedError

from pbm.outbound.render.env import make_environment, templates_dir

_SOURCE = (
    "{{ d.slot }}|{{ d.items is callable }}|{{ d.get('slot') }}|{{ d.__class__.__name__ }}"
    "|{{ o.slot }}|{{ sub.slot }}|{{ sub.keys is callable }}"
)


def _rendered(env: Environment) -> str:
    d = {"slot": 3, "items": "shadowed?", "get": "shadowed?", "__class__": "x"}
    sub = OrderedDict(slot=4, keys="shadowed?")
    return env.from_string(_SOURCE).render(d=d, o=SimpleNamespace(slot=5), sub=sub)


def test_a_dicts_items_and_methods_are_found_as_jinja_finds_them() -> None:
    """The same page as Jinja's own Environment renders: items, the methods a key would
    shadow, an object's attribute, a dict subclass's."""
    ours = make_environment(templates_dir())
    theirs = Environment(undefined=StrictUndefined)
    assert _rendered(ours) == _rendered(theirs) == "3|True|3|dict|5|4|True"


def test_a_name_a_dict_lacks_is_refused() -> None:
    """A name neither a key nor an attribute is undefined, and the strict environment
    refuses to render it."""
    env = make_environment(templates_dir())
    with pytest.raises(UndefinedError):
        env.from_string("{{ d.nothing }}").render(d={"slot": 1})
