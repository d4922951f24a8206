"""Response headers that keep the app safe in a browser, and the session cookie's flags."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response, abort, current_app, request

from scorekeeper.web import assets
from scorekeeper.web.sealed_session import SessionInterface


def content_security_policy(app: Flask, inline_scripts: Iterable[str] = ()) -> str:
    # The one pinned file of the CDN (its address exactly, with its SRI hash in the page),
    # not every file of the host; an inline script only by the hash of its exact text.
    cdn = app.config["HTMX_CDN"] if app.config.get("USE_CDN") else ""
    scripts = " ".join(["'self'", *([cdn] if cdn else []), *(assets.inline_hash(s) for s in inline_scripts)])
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


def page_policy() -> str:
    """The policy of this app's pages: the one inline script they carry is the import map."""
    script = assets.import_map()
    policies = current_app.extensions.setdefault("scorekeeper.csp", {})
    policy = policies.get(script)
    if policy is None:
        policy = policies[script] = content_security_policy(current_app, [script])
    return policy


def security_headers(app: Flask) -> tuple[tuple[str, str], ...]:
    """The headers every response carries (unless a view set its own), besides the policy."""
    return (
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
    )


# Only over HTTPS: a browser keeps the first for a year, and ignores the second on a plain-HTTP
# address other than localhost, saying so in the console of every page a phone on the table's
# Wi-Fi opens.
SECURE_ONLY = (("Strict-Transport-Security", "max-age=31536000"), ("Cross-Origin-Opener-Policy", "same-origin"))


def add_security_headers(response: Response) -> Response:
    # Every response passes here: one look at the headers already set, then the missing ones
    # appended, worked out once per app. An answer with no content (a watcher's poll, "no
    # change", every two seconds from every phone; a 304) is no document: nothing to frame,
    # sniff or run, so it goes without them.
    if response.status_code in (204, 304):
        return response
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()}
    wanted = current_app.extensions["scorekeeper.headers"]
    if request.is_secure:
        wanted = (*wanted, *SECURE_ONLY)
    for name, value in wanted:
        if name.lower() not in present:
            headers.add(name, value)
    if "content-security-policy" not in present:
        headers.add("Content-Security-Policy", page_policy())
    return response


#: The port a scheme is reached on when a link names none.
DEFAULT_PORTS = {"http": "80", "https": "443"}


def allowed_ports(app: Flask, name: str) -> set[str]:
    """The ports a ``Host`` for ``name`` may name: those its entries in ``TRUSTED_HOSTS`` give
    (``table.lan:8443``; ``.example.org:8443`` for every name under it), and with no proxy in
    front the port this server listens on."""
    ports = set()
    for ref in app.config.get("TRUSTED_HOSTS") or ():
        host, colon, port = str(ref).rpartition(":")
        if colon and port.isdigit() and (host == name or (host.startswith(".") and
                                                           (name == host[1:] or name.endswith(host)))):
            ports.add(port)
    if not app.config.get("PROXY_COUNT"):
        ports.add(str(request.environ.get("SERVER_PORT", "")))
    return ports


def trusted_port() -> None:
    """Before every request: Flask's ``TRUSTED_HOSTS`` checks a Host's name but not its port, and
    a link is made on the Host the request names: ``Host: localhost:6666`` would hand out links
    on port 6666. A port no phone reaches this server on is refused as a host not trusted is
    (400). With ``PUBLIC_URL`` set, links never come from the Host, and this has nothing to do."""
    app = current_app
    if not app.config.get("TRUSTED_HOSTS") or app.config.get("PUBLIC_URL"):
        return
    name, colon, port = request.host.rpartition(":")
    if not colon or not port.isdigit():  # no port named (an address "[::1]" alone)
        return
    if port == DEFAULT_PORTS.get(request.scheme) or port in allowed_ports(app, name):
        return
    abort(Response("400 Bad Request: this server does not answer on that port.\n", 400, mimetype="text/plain"))


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.headers"] = security_headers(app)
    app.session_interface = SessionInterface()
    app.before_request(trusted_port)
    app.after_request(add_security_headers)
