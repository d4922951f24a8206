"""Static files with versioned names and long cache lifetimes; compressed responses (Flask-Compress).

``url_for('static', filename=...)`` adds ``?v=<content hash>``, so a phone may keep
a file for a year and still gets the new one the moment it changes. The phone's script is ES
modules (static/js/) that import each other by plain relative addresses; the page's import map
turns each into its versioned one. A page preloads the modules it runs from the start: those the
entry imports, and the parts its markup asks for (its template's ``modules``).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request
from flask_compress import Compress
from markupsafe import Markup


YEAR = 365 * 24 * 3600


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


#: The phone's script: the modules in this folder of static/, started by the entry.
MODULE_FOLDER = "js"
ENTRY_MODULE = "js/main.js"


def _reloading(app: Flask) -> bool:
    return bool(app.debug or app.config.get("TEMPLATES_AUTO_RELOAD"))


def _versioned(app: Flask, names: list[str]) -> list[str]:
    # The addresses url_for("static") gives, made without its URL adapter: every answer's policy
    # names the import map, and a request refused for its Host header has no adapter.
    base = f"{request.script_root}{app.static_url_path}/"
    return [f"{base}{name}?v={static_version(app, name)}" for name in names]


def script_modules() -> list[str]:
    """The versioned addresses of the phone's script's modules, the entry first: the import
    map names them all, and the service worker keeps them all (a page may import any of them,
    with or without signal)."""
    app = current_app
    names = app.extensions.get("scorekeeper.modules")
    if names is None or _reloading(app):
        folder = Path(app.static_folder or "", MODULE_FOLDER)
        found = sorted(f"{MODULE_FOLDER}/{path.name}" for path in folder.glob("*.js"))
        names = app.extensions["scorekeeper.modules"] = [ENTRY_MODULE, *(n for n in found if n != ENTRY_MODULE)]
    return _versioned(app, names)


#: A module's static import (``import ... from "./keypad.js";``, at the start of a line); not
#: ``import("./keypad.js")``, which main.js makes only where the page's markup asks for it.
_STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"'();]*?["'](\./[^"']+)["']""", re.M)


def _static_imports(app: Flask, name: str) -> list[str]:
    source = Path(app.static_folder or "", name).read_text(encoding="utf-8")
    folder = name.rsplit("/", 1)[0]
    return [f"{folder}/{found.removeprefix('./')}" for found in _STATIC_IMPORT.findall(source)]


def module_preloads(parts: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The versioned addresses of the modules a page runs from the start, but the entry (its
    script tag): what the entry imports, and the parts of static/js/ the page's markup makes it
    import (``parts``: file names, e.g. ``keypad.js``), each with what it imports in turn. The
    page preloads them at once: the browser would otherwise find them one import at a time.
    Nothing else is fetched until the page asks for it (tests/browser/test_modules.py)."""
    app = current_app
    key = tuple(parts)
    known = app.extensions.setdefault("scorekeeper.preloads", {})
    names = known.get(key)
    if names is None or _reloading(app):
        names, waiting = [], [ENTRY_MODULE, *(f"{MODULE_FOLDER}/{part}" for part in parts)]
        while waiting:
            name = waiting.pop(0)
            if name not in names:
                names.append(name)
                waiting += _static_imports(app, name)
        names = known[key] = [name for name in names if name != ENTRY_MODULE]
    return _versioned(app, names)


def import_map() -> Markup:
    """The page's import map: each module's plain address mapped to its versioned one, so that
    ``import ... from "./outbox.js"`` fetches this release's file (one a phone may keep a year,
    and the one the service worker keeps). Inline, it is allowed by its hash
    (security.page_policy), worked out once per process and script root like the versions."""
    app = current_app
    if _reloading(app):
        return _import_map()
    known = app.extensions.setdefault("scorekeeper.import_maps", {})
    text = known.get(request.script_root)
    if text is None:
        text = known[request.script_root] = _import_map()
    return text


def _import_map() -> Markup:
    imports = {url.split("?")[0]: url for url in script_modules()}
    # Addresses hold no "<", so nothing in the map can end its <script> element early.
    return Markup(json.dumps({"imports": imports}, separators=(",", ":")))


def inline_hash(text: str) -> str:
    """An inline script's CSP source: "'sha256-...'" of its exact text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def release(app: Flask) -> str:
    """A short digest of the templates and static files this server renders pages with: part
    of a page's ETag, so that a browser never keeps a page across an upgrade that changed how
    it looks. Every server running the same release works out the same one (once, at start)."""
    known = app.extensions.get("scorekeeper.release")
    if known is None:
        digest = hashlib.sha256()
        for folder in (app.template_folder, app.static_folder):
            root = Path(app.root_path, folder or "")
            for path in sorted(p for p in root.rglob("*") if p.is_file()):
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
        known = app.extensions["scorekeeper.release"] = digest.hexdigest()[:8]
    return known


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript", "application/json",
        "application/manifest+json", "image/svg+xml", "text/csv",
    ])
    app.config.setdefault("COMPRESS_MIN_SIZE", 512)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Brotli's fastest quality: a page of 8 KB compresses in 30 µs instead of 80-100 µs
    # (quality 4, the default), for 350 more bytes (2.4 KB instead of 2.05 KB): every page is
    # compressed afresh, and the CPU is the scarce part.
    app.config.setdefault("COMPRESS_BR_LEVEL", 1)
    Compress(app)
    release(app)
    app.jinja_env.globals.update(import_map=import_map, script_modules=script_modules,
                                  module_preloads=module_preloads)

    @app.url_defaults
    def version_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = static_version(app, values["filename"])
            if version:
                values["v"] = version

    # Registered after Flask-Compress, so run before it (Flask runs these last first): a
    # static file leaves here already compressed, and Flask-Compress lets it be.
    @app.after_request
    def cache_static(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code == 200:
            filename = (request.view_args or {}).get("filename", "")
            version = static_version(app, filename)
            if request.args.get("v") and request.args.get("v") == version:
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
            else:
                response.headers["Cache-Control"] = "no-cache"
            if version:
                _precompressed(app, response, filename, version)
        return response


def encodings(app: Flask) -> tuple[str, ...]:
    """The encodings answers may be sent in (``COMPRESS_ALGORITHM``), best first."""
    algorithms = app.config.get("COMPRESS_ALGORITHM", ())
    if isinstance(algorithms, str):
        return tuple(name.strip() for name in algorithms.split(","))
    return tuple(algorithms)


def chosen_encoding() -> str | None:
    """The encoding a static file goes in: the best of ours (br, gzip) the browser takes, by
    its q-values ("br;q=0, gzip" is gzip; "identity, br;q=0.5" is none); None for none."""
    names = [name for name in encodings(current_app) if name in ("br", "gzip")]
    best = request.accept_encodings.best_match([*names, "identity"])
    return None if best == "identity" else best


#: Static files worth compressing, and the best compression: each is compressed once per
#: process and version (pages are compressed fast, every time; a file once, as small as it gets).
_COMPRESSIBLE = (".css", ".js", ".svg", ".json", ".webmanifest", ".txt")
#: The compressed files, by their path, version and encoding: kept for the process, not for one
#: app, so that a process making several apps (a test run's) compresses each file once.
_COMPRESSED: dict[tuple[str, str, str], bytes] = {}


def _precompressed(app: Flask, response: Response, filename: str, version: str) -> None:
    encoding = chosen_encoding()
    if encoding is None or not filename.endswith(_COMPRESSIBLE) or "Content-Encoding" in response.headers:
        return
    path = Path(app.static_folder or "") / filename
    body = _COMPRESSED.get((str(path), version, encoding))
    if body is None:
        raw = _minified(filename, path.read_bytes())
        if encoding == "br":
            body = brotli.compress(raw, quality=11)
        else:
            body = gzip.compress(raw, 9, mtime=0)
        _COMPRESSED[(str(path), version, encoding)] = body
    etag, weak = response.get_etag()
    response.direct_passthrough = False
    if hasattr(response.response, "close"):
        response.response.close()  # the file send_file opened: its bytes are not sent
    response.set_data(body)
    response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    if etag:
        response.set_etag(f"{etag}:{encoding}", weak=weak)
        response.make_conditional(request)  # the browser's copy of this encoding: 304


def _minified(filename: str, raw: bytes) -> bytes:
    """Our own CSS and JavaScript without their comments and spaces (rcssmin, rjsmin): the
    files stay commented for whoever reads them, and a phone gets a third fewer bytes (the
    benchmark's budget for our own files is 15 KB compressed). Vendored files come minified."""
    if filename.startswith("vendor/"):
        return raw
    if filename.endswith(".js"):
        return rjsmin.jsmin(raw)
    if filename.endswith(".css"):
        return rcssmin.cssmin(raw)
    return raw
