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
