"""Typed reads from TOML tables for :mod:`pbm.core.config`: key paths, ranges, env references."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any, Literal

from pbm.core.errors import ConfigError

__all__ = ["Section", "TlsMode", "table", "tls_mode"]

TlsMode = Literal["tls", "starttls", "plain"]
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_ADDRESS = re.compile(r"^[^@\s<>]+@[^@\s<>]+$")


class Section:
    """Typed reads from one TOML table, remembering which keys were used."""

    def __init__(self, data: Mapping[str, Any], path: str, env: Mapping[str, str]) -> None:
        self.data = data
        self.path = path
        self.env = env
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def _get(self, name: str) -> Any:
        self.used.add(name)
        return self.data.get(name)

    def has(self, name: str) -> bool:
        return name in self.data

    def text(self, name: str, default: str | None = None) -> str:
        value = self._get(name)
        if value is None:
            if default is None:
                raise ConfigError(self.key(name), "missing (required)")
            return default
        if not isinstance(value, str):
            raise ConfigError(self.key(name), f"expected a string, got {value!r}")
        return self._expand(name, value)

    def _expand(self, name: str, value: str) -> str:
        def sub(m: re.Match[str]) -> str:
            var = m.group(1)
            if var not in self.env:
                raise ConfigError(self.key(name), f"environment variable {var} is not set")
            return self.env[var]

        return _ENV_REF.sub(sub, value)

    def secret(self, name: str, *, required: bool = True) -> str:
        """A secret: ``name = "..."`` / ``"${VAR}"``, or ``name_env = "VAR"``."""
        env_key = f"{name}_env"
        if self.has(name) and self.has(env_key):
            raise ConfigError(self.key(name), f"give either {name} or {env_key}, not both")
        if self.has(env_key):
            var = self.text(env_key)
            if var not in self.env or not self.env[var]:
                raise ConfigError(self.key(env_key), f"environment variable {var} is not set")
            return self.env[var]
        if self.has(name):
            value = self.text(name)
            if required and not value:
                raise ConfigError(self.key(name), "must not be empty")
            return value
        self.used.update({name, env_key})
        if required:
            raise ConfigError(self.key(env_key), f"missing (set {name}_env or {name})")
        return ""

    def integer(
        self, name: str, default: int, *, lo: int | None = None, hi: int | None = None
    ) -> int:
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(self.key(name), f"expected an integer, got {value!r}")
        self._range(name, value, lo, hi)
        return value

    def number(self, name: str, default: float, *, lo: float | None = None) -> float:
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(self.key(name), f"expected a number, got {value!r}")
        self._range(name, value, lo, None)
        return float(value)

    def _range(self, name: str, value: float, lo: float | None, hi: float | None) -> None:
        if lo is not None and value < lo:
            raise ConfigError(self.key(name), f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            raise ConfigError(self.key(name), f"must be at most {hi}, got {value}")

    def flag(self, name: str, default: bool) -> bool:
        value = self._get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(self.key(name), f"expected true or false, got {value!r}")
        return value

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.text(name, default)
        if value not in choices:
            raise ConfigError(
                self.key(name), f"expected one of {', '.join(choices)}, got {value!r}"
            )
        return value

    def str_list(self, name: str) -> tuple[str, ...]:
        value = self._get(name)
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(self.key(name), f"expected a list of strings, got {value!r}")
        return tuple(self._expand(name, v) for v in value)

    def address(self, name: str, default: str | None = None) -> str:
        value = self.text(name, default)
        if not _ADDRESS.match(value):
            raise ConfigError(self.key(name), f"expected an email address, got {value!r}")
        return value.lower()

    def done(self, allowed: tuple[str, ...] = ()) -> None:
        """Fail on keys nobody read: they are typos or belong elsewhere."""
        known = self.used | set(allowed)
        for name in self.data:
            if name not in known:
                hint = difflib.get_close_matches(name, sorted(known), n=1)
                extra = f" (did you mean {hint[0]!r}?)" if hint else ""
                raise ConfigError(self.key(name), f"unknown key{extra}")


def table(root: Section, name: str, *, required: bool) -> Section | None:
    value = root._get(name)
    if value is None:
        if required:
            raise ConfigError(name, "missing section (required)")
        return None
    if not isinstance(value, dict):
        raise ConfigError(name, f"expected a table [{name}], got {value!r}")
    return Section(value, root.key(name), root.env)


def tls_mode(sec: Section, default: str) -> TlsMode:
    mode = sec.choice("tls", default, ("tls", "starttls", "plain"))
    return "tls" if mode == "tls" else "starttls" if mode == "starttls" else "plain"
