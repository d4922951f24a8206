"""What a reader can set or run is written down: every configuration key the app reads, every
SCOREKEEPER_* environment variable, every ``flask`` command the app registers and every make
target is named in README.md or a page of docs/.

The names are found where they are defined (the code, the app's command group, the Makefile),
so a new key, command or target fails here until a page names it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest

from scorekeeper import create_app
from scorekeeper.store.models import db

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
#: Flask-Migrate's own group: documented by Flask-Migrate (``flask db upgrade`` is named in the
#: pages as a step, its other commands are not ours to describe).
NOT_OURS = {"db"}


def documentation() -> str:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def named(word: str, text: str) -> bool:
    """``word`` stands on its own in ``text`` (RATELIMIT_ENABLED is not named by RATELIMIT_*)."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def python_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]


def _is_config(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "config"


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def config_keys_in(source: str) -> set[str]:
    """The keys ``source`` reads or sets: ``config["K"]``, ``config.get("K")``,
    ``config.setdefault("K")``, ``config.from_mapping(K=...)``, and the key named to
    :func:`scorekeeper.web.limits.max_body`."""
    keys: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _is_config(node.value):
            keys.add(_string(node.slice) or "")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, method = node.func.value, node.func.attr
            if _is_config(owner) and method in ("get", "setdefault") and node.args:
                keys.add(_string(node.args[0]) or "")
            elif _is_config(owner) and method == "from_mapping":
                keys.update(k.arg for k in node.keywords if k.arg)
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "max_body":
            keys.add(_string(node.args[0]) or "")
    return {k for k in keys if re.fullmatch(r"[A-Z][A-Z0-9_]+", k)}


def config_keys() -> set[str]:
    keys = set()
    for path in python_files():
        keys |= config_keys_in(path.read_text(encoding="utf-8"))
    for template in (ROOT / "templates").rglob("*"):
        if template.is_file():
            keys |= set(re.findall(r"\bconfig\.([A-Z][A-Z0-9_]+)", template.read_text(encoding="utf-8")))
    return keys


def environment_variables() -> set[str]:
    sources = [p.read_text(encoding="utf-8") for p in python_files()] + [(ROOT / "Makefile").read_text()]
    return {name for text in sources for name in re.findall(r"\bSCOREKEEPER_[A-Z0-9_]+", text)}


def commands(group: click.Group, prefix: tuple[str, ...] = ()) -> set[str]:
    """Every command under ``group``, as typed after ``flask``: ``games rebuild``."""
    found = set()
    for name, command in group.commands.items():
        if not prefix and name in NOT_OURS:
            continue
        if isinstance(command, click.Group):
            found |= commands(command, (*prefix, name))
        else:
            found.add(" ".join((*prefix, name)))
    return found


def make_targets(makefile: str) -> set[str]:
    """The targets a person types: those in .PHONY, and every rule named like a word (not a
    file the Makefile makes, such as $(STAMP))."""
    targets = set()
    for line in makefile.splitlines():
        if line.startswith(".PHONY:"):
            targets.update(line.removeprefix(".PHONY:").split())
        rule = re.match(r"([a-z][a-z0-9-]*)\s*:(?!=)", line)
        if rule:
            targets.add(rule.group(1))
    return targets


@pytest.fixture(scope="module")
def flask_commands(tmp_path_factory):
    instance = tmp_path_factory.mktemp("docs")
    with pytest.MonkeyPatch.context() as patch:
        # An instance folder of its own: never the checkout's instance/.
        patch.setenv("SCOREKEEPER_INSTANCE", str(instance))
        app = create_app({"SECRET_KEY": "docs", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance / 'docs.sqlite'}",
                          "CHECK_SCHEMA": False})
    with app.app_context():
        db.engine.dispose()
    return commands(app.cli)


def test_the_finders_find_what_is_there(flask_commands):
    # A finder that finds nothing would let every page pass.
    assert {"SQLALCHEMY_DATABASE_URI", "PUBLIC_URL", "CLUB_KEY_HASH", "IMPORT_MAX_BYTES",
            "RATELIMIT_STORAGE_URI", "USE_CDN"} <= config_keys()
    assert {"SCOREKEEPER_INSTANCE", "SCOREKEEPER_LOCAL_HOSTS"} <= environment_variables()
    assert {"games import", "games export", "games rebuild", "games edit-link", "club-key", "backup",
            "restore"} <= flask_commands
    assert {"run", "test", "test-postgres", "bench", "lock"} <= make_targets((ROOT / "Makefile").read_text())


def test_the_config_finder_reads_every_way_a_key_is_named():
    source = (
        'app.config["A_KEY"]\n'
        'current_app.config.get("B_KEY", 1)\n'
        'app.config.setdefault("C_KEY", 2)\n'
        'app.config.from_mapping(D_KEY=3, E_KEY=4)\n'
        '@max_body("F_KEY", 5)\n'
        'def view(): pass\n'
        'request.args.get("not_a_key")\n'
    )
    assert config_keys_in(source) == {"A_KEY", "B_KEY", "C_KEY", "D_KEY", "E_KEY", "F_KEY"}


def test_every_configuration_key_is_documented():
    text = documentation()
    missing = sorted(k for k in config_keys() | environment_variables() if not named(k, text))
    assert not missing, f"not named in README.md or docs/*.md (docs/running.md, Configuration): {missing}"


def test_every_flask_command_is_documented(flask_commands):
    text = documentation()
    missing = sorted(c for c in flask_commands
                     if not re.search(rf"flask(?: --app scorekeeper)? {re.escape(c)}(?![\w-])", text))
    assert not missing, f"not shown as `flask {{command}}` in README.md or docs/*.md: {missing}"


def test_every_make_target_is_documented():
    text = documentation()
    targets = make_targets((ROOT / "Makefile").read_text())
    missing = sorted(t for t in targets if not re.search(rf"make {re.escape(t)}(?![\w-])", text))
    assert not missing, f"not shown as `make {{target}}` in README.md or docs/*.md: {missing}"


def test_a_key_named_only_by_a_pattern_is_not_named():
    assert not named("RATELIMIT_ENABLED", "`RATELIMIT_*`")
    assert not named("COMPRESS_MIN_SIZE", "`COMPRESS_MIN_SIZE_X`")
    assert named("PUBLIC_URL", "set `PUBLIC_URL` or")


def test_every_page_a_page_names_is_in_the_repository():
    """A clone holds every Markdown page that README.md and docs/ link to or name: none outside
    the repository (a team's brief beside the checkout is not in a reader's clone)."""
    missing = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        body = page.read_text(encoding="utf-8")
        named = re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", body) + re.findall(r"`([^`\s]+\.md)`", body)
        for path in named:
            places = [(page.parent / path).resolve(), (ROOT / path).resolve()]
            if not any(p.is_file() and p.is_relative_to(ROOT) for p in places):
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert not missing, missing
