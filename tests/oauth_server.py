"""A loopback OAuth2 authorisation server for tests: the token endpoint pbm refreshes its access
token at, and the introspection endpoint (RFC 7662) Dovecot's ``passdb oauth2`` asks.

It plays the provider's part (Microsoft's or Google's token endpoint) with the behaviours
that matter to pbm: access tokens that expire, refresh tokens that rotate, and refresh tokens
that are revoked (``invalid_grant``, as both providers answer).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

__all__ = ["TokenServer", "token_server"]

CLIENT_ID = "pbm-test-client"
CLIENT_SECRET = "pbm-test-client-secret"


@dataclass
class TokenServer:
    """The server's state: who each refresh and access token belongs to, and what happened."""

    port: int = 0
    lifetime: float = 3600.0  # seconds an access token lives (expires_in)
    rotate: bool = False  # answer each refresh with a new refresh token (Microsoft does)
    refresh_tokens: dict[str, str] = field(default_factory=dict)  # token -> user
    access_tokens: dict[str, tuple[str, float]] = field(default_factory=dict)  # -> user, expiry
    refreshes: list[str] = field(default_factory=list)  # the user of each granted refresh
    refused: list[str] = field(default_factory=list)  # the error of each refused request
    introspections: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def token_url(self) -> str:
        """The token endpoint."""
        return f"http://127.0.0.1:{self.port}/token"

    @property
    def introspection_url(self) -> str:
        """The introspection endpoint (Dovecot's)."""
        return f"http://127.0.0.1:{self.port}/introspect"

    def issue_refresh_token(self, user: str) -> str:
        """A new refresh token for ``user`` (what the operator gets by consenting once)."""
        token = "rt-" + secrets.token_urlsafe(24)
        with self.lock:
            self.refresh_tokens[token] = user
        return token

    def revoke(self, refresh_token: str) -> None:
        """Revoke a refresh token (the user changed their password, or an admin revoked it)."""
        with self.lock:
            self.refresh_tokens.pop(refresh_token, None)

    def expire_access_tokens(self) -> None:
        """Every access token issued so far expires now (before its expires_in says)."""
        with self.lock:
            self.access_tokens = {t: (u, 0.0) for t, (u, _) in self.access_tokens.items()}

    def grant(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """The token endpoint's answer to a POSTed form."""
        with self.lock:
            if form.get("grant_type") != "refresh_token":
                self.refused.append("unsupported_grant_type")
                return 400, {"error": "unsupported_grant_type"}
            if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
                self.refused.append("invalid_client")
                return 401, {"error": "invalid_client"}
            user = self.refresh_tokens.get(form.get("refresh_token", ""))
            if user is None:
                self.refused.append("invalid_grant")
                return 400, {
                    "error": "invalid_grant",
                    "error_description": "AADSTS70008: The refresh token has expired or was "
                    "revoked.",
                }
            access = "at-" + secrets.token_urlsafe(32)
            self.access_tokens[access] = (user, time.monotonic() + self.lifetime)
            self.refreshes.append(user)
            answer: dict[str, Any] = {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": int(self.lifetime),
                "scope": form.get("scope", ""),
            }
            if self.rotate:
                old = form["refresh_token"]
                del self.refresh_tokens[old]
                new = "rt-" + secrets.token_urlsafe(24)
                self.refresh_tokens[new] = user
                answer["refresh_token"] = new
            return 200, answer

    def introspect(self, token: str) -> dict[str, Any]:
        """RFC 7662: whether ``token`` is active, and whose it is."""
        with self.lock:
            self.introspections += 1
            found = self.access_tokens.get(token)
            if found is None or found[1] <= time.monotonic():
                return {"active": False}
            return {"active": True, "username": found[0], "scope": "mail"}


def _handler(state: TokenServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            if self.path == "/token":
                status, body = state.grant(form)
            elif self.path == "/introspect":
                status, body = 200, state.introspect(form.get("token", ""))
            else:
                status, body = 404, {"error": "not_found"}
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: pytest runs with warnings as errors, and this is noise

    return Handler


@contextmanager
def token_server(**settings: Any) -> Iterator[TokenServer]:
    """Run a :class:`TokenServer` on a free loopback port for the block."""
    state = TokenServer(**settings)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.port = httpd.server_address[1]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)
