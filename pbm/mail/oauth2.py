"""OAuth2 for the mail doors: access tokens for IMAP and SMTP, refreshed from a refresh token.

Microsoft 365 / Outlook.com no longer take passwords over IMAP and SMTP, and Gmail takes them
only as app passwords: both want SASL ``XOAUTH2`` or ``OAUTHBEARER`` (RFC 7628) with an OAuth2
access token. An access token lives about an hour; pbm gets a new one from the provider's
token endpoint with the long-lived refresh token the operator obtained once, by consenting
(docs/ops/oauth2.md). :class:`TokenSource` holds the current access token in memory only,
refreshes it shortly before it expires (or at once when the server refused it early), keeps a
rotated refresh token (Microsoft answers each refresh with a new one) by writing it back to
``refresh_token_file``, and never writes a token anywhere else: every token it handles is
hidden from the logs (:func:`pbm.ops.logs.hide`).

A refused refresh token (``invalid_grant``: revoked, expired, the password changed) is logged
once, as one error line that says what to do; every later try raises the same
:class:`~pbm.core.errors.OAuth2Error` quietly, the doors back off and retry, and the first success
(the operator replaced the token file) clears it. The HTTP exchange is Authlib's.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import structlog

from pbm.core.errors import OAuth2Error
from pbm.ops.logs import hide

__all__ = [
    "PROVIDERS",
    "Mechanism",
    "OAuth2Config",
    "Provider",
    "TokenSource",
    "sasl_string",
    "token_source",
]

log = structlog.get_logger("pbm.oauth2")

Mechanism = Literal["xoauth2", "oauthbearer"]


@dataclass(frozen=True, slots=True)
class Provider:
    """A provider's token endpoint and the scope pbm asks for (the mail servers are in the
    operator's guide: they are the doors' own ``host`` and ``port``)."""

    token_url: str
    scope: str


#: ``{tenant}`` is ``[oauth2] tenant``: ``common`` (work and personal accounts), ``consumers``
#: (Outlook.com only), ``organizations`` or the tenant's id or domain.
PROVIDERS: dict[str, Provider] = {
    "microsoft": Provider(
        "https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token",
        "https://outlook.office.com/IMAP.AccessAsUser.All "
        "https://outlook.office.com/SMTP.Send offline_access",
    ),
    # Google grants the scope at consent; a refresh must not ask for it again.
    "google": Provider("https://oauth2.googleapis.com/token", ""),
}

#: Errors of the token endpoint (RFC 6749 §5.2) that no retry will cure.
_REFUSALS = ("invalid_grant", "invalid_client", "unauthorized_client", "invalid_scope")
#: Refresh this long before the token's expiry (at most a tenth of its life).
_MARGIN = 60.0


@dataclass(frozen=True, slots=True)
class OAuth2Config:
    """``[oauth2]``: the account's client registration and refresh token."""

    provider: str
    token_url: str
    client_id: str
    scope: str = ""
    client_secret: str = field(default="", repr=False)
    refresh_token: str = field(default="", repr=False)
    refresh_token_file: Path | None = None
    timeout: float = 30.0
    ca_file: str | None = None

    def secrets(self) -> tuple[str, ...]:
        """The secrets to hide from logs: the client secret and the refresh token (the file's
        too, as it reads now)."""
        found = [self.client_secret, self.refresh_token]
        if self.refresh_token_file is not None:
            with contextlib.suppress(OSError):  # reported when a token is needed
                found.append(self.refresh_token_file.read_text(encoding="utf-8").strip())
        return tuple(s for s in found if s)


def sasl_string(mechanism: Mechanism, user: str, token: str) -> str:
    """The SASL initial response of ``mechanism`` for ``user`` with access token ``token``."""
    if mechanism == "oauthbearer":  # RFC 7628 §3.1 (no host/port: optional, and unused)
        return f"n,a={user},\x01auth=Bearer {token}\x01\x01"
    return f"user={user}\x01auth=Bearer {token}\x01\x01"  # Google's and Microsoft's XOAUTH2


class TokenSource:
    """The access token of one account, refreshed when it runs out; thread-safe (the IMAP
    door and the outbox share one)."""

    def __init__(
        self,
        config: OAuth2Config,
        *,
        clock: Callable[[], float] = time.monotonic,
        session: Any = None,
    ) -> None:
        self.config = config
        self._clock = clock
        self._session = session  # an authlib OAuth2Session; made on first use
        self._lock = threading.Lock()
        self._access: str | None = None
        self._expires_at = 0.0
        self._rotated: str | None = None  # a newer refresh token than the config's
        self._refused: str | None = None  # the refusal already logged, until a success
        self.refreshes = 0
        hide(*config.secrets())

    def token(self) -> str:
        """A current access token, refreshed first if it expires within a minute.

        Raises :class:`OAuth2Error`: permanent when the provider refused the refresh token,
        transient when it could not be asked."""
        with self._lock:
            if self._access is None or self._clock() >= self._expires_at:
                self._refresh()
            assert self._access is not None
            return self._access

    def invalidate(self, token: str) -> None:
        """The server refused ``token`` before its time: the next :meth:`token` refreshes."""
        with self._lock:
            if self._access == token:
                self._access = None

    def _refresh_token(self) -> str:
        cfg = self.config
        if cfg.refresh_token_file is not None:
            try:
                found = cfg.refresh_token_file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise OAuth2Error(
                    f"OAuth2: cannot read refresh_token_file {cfg.refresh_token_file}: "
                    f"{exc.strerror or exc}",
                    transient=False,
                ) from exc
            if not found:
                raise OAuth2Error(
                    f"OAuth2: refresh_token_file {cfg.refresh_token_file} is empty",
                    transient=False,
                )
            hide(found)
            return found
        return self._rotated or cfg.refresh_token

    def _client(self) -> Any:
        if self._session is None:
            from authlib.integrations.requests_client import OAuth2Session

            cfg = self.config
            self._session = OAuth2Session(
                cfg.client_id,
                cfg.client_secret or None,
                token_endpoint_auth_method="client_secret_post" if cfg.client_secret else "none",
                scope=cfg.scope or None,
            )
            if cfg.ca_file:
                self._session.verify = cfg.ca_file
        return self._session

    def _refresh(self) -> None:
        cfg = self.config
        refresh = self._refresh_token()
        started = self._clock()
        try:
            answer = self._client().refresh_token(
                cfg.token_url,
                refresh_token=refresh,
                timeout=cfg.timeout,
                client_id=cfg.client_id,
            )
        except Exception as exc:
            raise self._failed(exc) from exc
        access = answer.get("access_token") if isinstance(answer, dict) else None
        if not isinstance(access, str) or not access:
            raise OAuth2Error("OAuth2: the token endpoint answered without an access token")
        hide(access)
        try:
            given = answer.get("expires_in")
            life = 3600.0 if given is None else max(0.0, float(given))
        except (TypeError, ValueError):
            life = 3600.0
        self._access = access
        self._expires_at = started + life - min(_MARGIN, life / 10)
        self.refreshes += 1
        new_refresh = answer.get("refresh_token")
        if isinstance(new_refresh, str) and new_refresh and new_refresh != refresh:
            hide(new_refresh)
            self._keep(new_refresh)
        if self._refused is not None:
            log.info("oauth2.refresh_ok", token_url=cfg.token_url)
        self._refused = None
        log.debug("oauth2.refreshed", token_url=cfg.token_url, expires_in=life)

    def _keep(self, refresh: str) -> None:
        """Keep a rotated refresh token: in memory, and in the token file when there is one
        (the old one may stop working; the new one must outlive a restart)."""
        self._rotated = refresh
        path = self.config.refresh_token_file
        if path is None:
            return
        try:
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
            try:
                os.fchmod(fd, 0o600)
                os.write(fd, (refresh + "\n").encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
            Path(tmp).replace(path)
        except OSError as exc:
            log.warning(
                "oauth2.rotated_token_unsaved",
                file=str(path),
                error=exc.strerror or str(exc),
                note="pbm uses the new refresh token until it stops; save it by hand",
            )

    def _failed(self, exc: Exception) -> OAuth2Error:
        from authlib.common.errors import AuthlibBaseError

        cfg = self.config
        if isinstance(exc, AuthlibBaseError) and exc.error in _REFUSALS:
            said = exc.error + (f" ({exc.description})" if exc.description else "")
            where = (
                f"refresh_token_file {cfg.refresh_token_file}"
                if cfg.refresh_token_file
                else "[oauth2] refresh_token"
            )
            err = OAuth2Error(
                f"OAuth2: {cfg.token_url} refused the refresh token: {said}. Get a new refresh "
                f"token (docs/ops/oauth2.md) and put it in {where}; pbm keeps retrying",
                transient=False,
            )
            if self._refused != said:  # one line for the operator, not one per retry
                self._refused = said
                log.error("oauth2.refresh_refused", error=str(err))
            return err
        if isinstance(exc, AuthlibBaseError):
            return OAuth2Error(f"OAuth2: {cfg.token_url} said {exc.error}", transient=True)
        return OAuth2Error(
            f"OAuth2: cannot refresh the access token at {cfg.token_url}: "
            f"{type(exc).__name__}: {exc}",
            transient=True,
        )


_SOURCES: dict[OAuth2Config, TokenSource] = {}
_SOURCES_LOCK = threading.Lock()


def token_source(config: OAuth2Config) -> TokenSource:
    """The one :class:`TokenSource` of ``config`` in this process (IMAP and SMTP share it, so
    a rotated refresh token is used once)."""
    with _SOURCES_LOCK:
        found = _SOURCES.get(config)
        if found is None:
            found = _SOURCES[config] = TokenSource(config)
        return found
