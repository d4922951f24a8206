"""The architecture holds: layers import only downwards (import-linter's contracts in
pyproject.toml), and there are no import circles."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"


def test_the_layer_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_a_migration_imports_nothing_of_the_live_app():
    """A revision must do tomorrow what it does today: it carries the table shapes and the logic
    it needs, frozen, and imports nothing of the app (whose models and functions move on)."""
    found = []
    for path in sorted((PACKAGE / "store" / "migrations").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                if node.level:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: a relative import")
                    continue
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: imports {name}" for name in names
                      if name == "scorekeeper" or name.startswith("scorekeeper.")]
    assert not found, "\n".join(found)
