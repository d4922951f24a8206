"""How many lines of the app exist only for speed: the pieces named below, counted as they
stand in the checkout. A piece named here that is not in the checkout is an error
(tests/test_bench.py checks): a piece removed from the app is removed from this list too.

Each piece is a whole file, or named definitions in a file ("Class", "function", or
"outer.inner" for a function defined inside another). Two figures: every line of the pieces,
and their code alone (no blank lines, comments or docstrings).

    .venv/bin/python -m bench.speed_lines
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (file, definitions in it or None for the whole file, why it is speed-only)
PIECES: list[tuple[str, tuple[str, ...] | None, str]] = [
    ("scorekeeper/web/polls.py", None, "the unchanged poll answered before Flask"),
    ("scorekeeper/store/games.py", ("VersionReader",), "its read of a game's version, outside a request"),
    ("scorekeeper/store/database.py", ("one_statement_engine",), "that read with no transaction around it"),
    ("scorekeeper/serving.py", ("connect_ahead",), "that read's connections made before the first poll"),
    ("scorekeeper/app.py", ("compiled_templates",), "templates compiled once for every process"),
    ("scorekeeper/web/languages.py", ("Language", "language", "gettext", "ngettext", "pgettext"),
     "a request's language found once, its words read from that catalogue"),
    ("scorekeeper/club/history.py", ("_nights_statement",), "a player's club nights, a statement made once"),
    ("scorekeeper/store/figures/player_summaries.py", ("_playing_statements",),
     "a player's unfinished games, statements made once"),
    ("scorekeeper/web/assets.py",
     ("encodings", "chosen_encoding", "_precompressed"),
     "compression chosen by hand, static files compressed once"),
]


def definitions(tree: ast.AST, prefix: str = "") -> dict[str, ast.AST]:
    found: dict[str, ast.AST] = {}
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + node.name
            found[name] = node
            found.update(definitions(node, name + "."))
    return found


def code_lines(source: str) -> set[int]:
    """The lines holding code: not blank, not only a comment, not a docstring."""
    lines: set[int] = set()
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines - docstrings


def count(path: str, names: tuple[str, ...] | None) -> tuple[int, int]:
    """(lines, code lines) of the pieces in ``path``; LookupError for a piece not there."""
    file = ROOT / path
    if not file.exists():
        raise LookupError(f"{path} is named as speed-only but is not in the checkout")
    source = file.read_text()
    code = code_lines(source)
    if names is None:
        spans = [(1, len(source.splitlines()))]
    else:
        defs = definitions(ast.parse(source))
        spans = []
        for name in names:
            node = defs.get(name)
            if node is None:
                raise LookupError(f"{path}: {name} is named as speed-only but is not there")
            start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            spans.append((start, node.end_lineno))
    numbers = {n for start, end in spans for n in range(start, end + 1)}
    return len(numbers), len(numbers & code)


def total() -> tuple[int, int]:
    counts = [count(path, names) for path, names, _ in PIECES]
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


def main() -> None:
    print(f"{'lines':>6}{'code':>6}  speed-only piece")
    for path, names, why in PIECES:
        lines, code = count(path, names)
        what = path if names is None else f"{path}: {', '.join(names)}"
        print(f"{lines:6d}{code:6d}  {what} ({why})")
    lines, code = total()
    print(f"{lines:6d}{code:6d}  in all")


if __name__ == "__main__":
    sys.exit(main())
