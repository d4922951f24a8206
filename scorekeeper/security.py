"""Response headers that keep the app safe in a browser, and the session cookie's flags."""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from flask.sessions import SecureCookieSessionInterface


def content_security_policy(app: Flask) -> str:
    cdn = app.config["HTMX_CDN"].split("/npm/")[0] if app.config.get("USE_CDN") else ""
    scripts = "'self'" + (f" {cdn}" if cdn else "")
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "font-src 'self'",
            "manifest-src 'self'",
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", current_app.extensions["scorekeeper.csp"])
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the page was served over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.csp"] = content_security_policy(app)
    app.session_interface = SessionInterface()
    app.after_request(add_security_headers)
