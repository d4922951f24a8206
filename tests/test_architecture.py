"""The architecture holds: layers import only downwards (import-linter's contracts in
pyproject.toml), there are no import circles, migrations import nothing of the live app, no
private name of another package is used, and the store's tests mirror the store module by module."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
TESTS = ROOT / "tests"

#: Names other packages spell with a leading underscore and document as public: a named tuple's
#: (and so SQLAlchemy's Row's) own methods, named so that they never clash with a field.
PUBLIC_WITH_UNDERSCORE = {"_mapping", "_fields", "_asdict", "_replace", "_make", "_t", "_tuple"}


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


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _overrides(tree: ast.AST, our_classes: set[str]) -> list[ast.FunctionDef]:
    """Private methods defined in a class that has another package's class among its bases:
    an override of that package's private name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
                     for b in node.bases]
            if any(base not in our_classes for base in bases):
                found += [f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                          and _is_private(f.name)]
    return found


def _our_classes() -> set[str]:
    return {node.name for path in PACKAGE.rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef)}


def _defined_names(our_classes: set[str]) -> set[str]:
    """Every name our own code defines: its private names are ours to use (but not a private
    method that overrides another package's)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        overriding = set(map(id, _overrides(tree, our_classes)))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if id(node) not in overriding:
                    names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
    return names


def _private_uses(source: str, ours: set[str], our_classes: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    uses = [(f.lineno, f"def {f.name} (overrides another package's)") for f in _overrides(tree, our_classes)]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and not (node.module or "").startswith("scorekeeper"):
            uses += [(node.lineno, f"{node.module}.{a.name}") for a in node.names
                     if a.name.startswith("_") and not a.name.startswith("__")]
        elif isinstance(node, ast.Import):
            uses += [(node.lineno, a.name) for a in node.names
                     if any(part.startswith("_") and not part.startswith("__") for part in a.name.split("."))]
        elif isinstance(node, ast.Attribute):
            name = node.attr
            if (_is_private(name) and name not in ours
                    and name not in PUBLIC_WITH_UNDERSCORE):
                uses.append((node.lineno, f".{name}"))
    return uses


def test_no_private_name_of_another_package_is_used():
    """A private name of Flask, SQLAlchemy or any other library breaks silently on its next
    release; the app uses their public API only."""
    our_classes = _our_classes()
    ours = _defined_names(our_classes)
    offenders = [f"{path.relative_to(ROOT)}:{line}: {name}"
                 for path in sorted(PACKAGE.rglob("*.py"))
                 for line, name in _private_uses(path.read_text(encoding="utf-8"), ours, our_classes)]
    assert offenders == []


def test_the_private_name_check_sees_what_it_is_for():
    ours, our_classes = {"_mine", "Mine"}, {"Mine"}
    source = ("from flask_limiter import _helper\nimport sqlalchemy._private\n"
              "x = limiter._check_request_limit()\ny = thing._mine\nz = row._mapping\n"
              "class Mine:\n    def _fine(self): pass\n"
              "class Theirs(Limiter):\n    def _inject_headers(self): pass\n")
    assert sorted(name for _, name in _private_uses(source, ours, our_classes)) == sorted([
        "def _inject_headers (overrides another package's)", "flask_limiter._helper", "sqlalchemy._private",
        "._check_request_limit"])


def _untested_modules(package: Path, tests: Path, root: Path = ROOT) -> list[str]:
    """The modules of ``package`` (in its sub-packages too; not an ``__init__.py``, not the
    migrations, which test_migrations.py runs as a whole) without a test module at the mirrored
    path: ``seats/flags.py`` is tested in ``seats/test_flags.py`` under ``tests``."""
    missing = []
    for module in sorted(package.rglob("*.py")):
        inside = module.relative_to(package)
        if module.name == "__init__.py" or inside.parts[0] == "migrations":
            continue
        mirrored = tests / inside.parent / f"test_{module.name}"
        if not mirrored.is_file():
            missing.append(f"{module.relative_to(root)}: no {mirrored.relative_to(root)}")
    return missing


def test_every_module_of_the_store_has_its_tests_at_the_mirrored_path():
    """A store module's tests are found by its name, and a new module comes with a file of its
    own (tests/README.md: a file a module); what spans modules (migrations, two writers at once)
    may have files beside them."""
    missing = _untested_modules(PACKAGE / "store", TESTS / "store")
    assert not missing, "\n".join(missing)


def test_the_mirror_check_names_each_module_without_its_tests(tmp_path):
    package, tests = tmp_path / "store", tmp_path / "tests" / "store"
    for path in (package / "__init__.py", package / "rounds.py", package / "seats" / "__init__.py",
                 package / "seats" / "flags.py", package / "seats" / "keys.py",
                 package / "migrations" / "env.py", tests / "test_rounds.py", tests / "test_keys.py",
                 tests / "seats" / "test_flags.py"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    # seats/keys.py is tested only by a file of the same name elsewhere: not its mirror.
    assert _untested_modules(package, tests, tmp_path) == ["store/seats/keys.py: no tests/store/seats/test_keys.py"]
