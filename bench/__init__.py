"""`make bench` and its parts: how fast Scorekeeper answers, against a floor, on this machine.

A package, run from the top of the checkout as ``python -m bench.run`` (and ``bench.rounds``,
``bench.table_load``, ``bench.stack_load``, ...), so that its modules import each other by name
and nothing changes ``sys.path``. Two kinds of module, held apart by import-linter's contracts
in pyproject.toml (the library never imports a script, and no module imports another that
imports it back):

- the library: ``common`` (paths, a phone's headers, fetching, figures), ``databases`` (SQLite
  and PostgreSQL, a seeded history), ``servers`` (the app and the floor, started by
  scorekeeper/launcher.py as the tests start theirs), ``measure`` (wrk, rounds, first and warm
  answers), ``targets`` (the targets, all ratios, and their verdicts), ``report`` (the tables),
  ``table_load`` (the table load model), ``lighthouse`` (its performance score of three pages),
  ``seed``, ``page_weight``, ``speed_lines``, and the floor app ``floor``;
- the scripts: ``run`` (`make bench`), ``rounds``, ``stack_load``, ``import_lock``,
  ``page_instructions``, ``round_instructions``; each a ``main`` over the library.
"""
