"""Static files with versioned names and long cache lifetimes; compressed responses.

``url_for('static', filename=...)`` adds ``?v=<content hash>``, so a phone may keep
a file for a year and still gets the new one the moment it changes.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import Flask, Response, request
from flask_compress import Compress

YEAR = 365 * 24 * 3600
compress = Compress()


@lru_cache(maxsize=256)
def _digest(path: str, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:10]


def static_version(app: Flask, filename: str) -> str | None:
    """The first characters of the file's SHA-256 (None: no such file).

    A page names several static files and every page is rendered with them: in production
    each file's version is worked out once per process (a deployment restarts the workers);
    with the debugger or template reloading on, the file is looked at every time.
    """
    if not (app.debug or app.config.get("TEMPLATES_AUTO_RELOAD")):
        known = app.extensions.setdefault("scorekeeper.static_versions", {})
        if filename not in known:
            known[filename] = _look(app, filename)
        return known[filename]
    return _look(app, filename)


def _look(app: Flask, filename: str) -> str | None:
    path = Path(app.static_folder or "") / filename
    try:
        stat = path.stat()
    except OSError:
        return None
    return _digest(str(path), stat.st_mtime_ns)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
        "application/manifest+json", "image/svg+xml", "text/csv",
    ])
    app.config.setdefault("COMPRESS_MIN_SIZE", 512)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Brotli's fastest quality: a page of 8 KB compresses in 30 µs instead of 80-100 µs
    # (quality 4, the default), for 350 more bytes (2.4 KB instead of 2.05 KB). Every page
    # and every board a watcher receives is compressed afresh; the CPU is the scarce part.
    app.config.setdefault("COMPRESS_BR_LEVEL", 1)
    compress.init_app(app)

    @app.url_defaults
    def version_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = static_version(app, values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def cache_static(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code == 200:
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args.get("v") == static_version(app, filename):
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
            else:
                response.headers["Cache-Control"] = "no-cache"
        return response
