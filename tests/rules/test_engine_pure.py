import subprocess
import sys


def test_rules_engine_imports_neither_flask_nor_sqlalchemy():
    code = (
        "import sys, scorekeeper.rules; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'flask', 'sqlalchemy', 'flask_sqlalchemy'}); "
        "print(','.join(bad))"
    )
    # Import the subpackage without running scorekeeper/__init__ side effects on the check:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"scorekeeper.rules pulled in: {out.stdout}"
