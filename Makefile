# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
# waitress's worker threads: requests worked on at once. A request takes one only once it has
# arrived whole, so a slow phone never holds one (scorekeeper/serving.py).
THREADS ?= 4
STAMP := $(VENV)/.installed
# Python keeps its compiled modules (__pycache__, ignored by git), also where the environment
# says not to: without them every pytest worker compiled the app and rewrote the asserts of every
# test module again (8.5 s of processor each, 2.8 s with them), and every server a test starts
# compiled the app.
unexport PYTHONDONTWRITEBYTECODE
# The quality gates' tools (axe-core, vnu-jar, lighthouse), pinned in package-lock.json.
NODE_STAMP := node_modules/.installed

# The lock (uv.lock: every version, with its hashes, for every platform) and its exports for
# pip: requirements.txt (the app, PostgreSQL and Redis: what a server installs, docs/running.md "From
# the wheel") and requirements-test.txt (the test tools too: what this Makefile installs).
LOCK_EXPORT = $(BIN)/uv export --frozen --no-emit-project --quiet

.PHONY: run test check test-js js-cases test-postgres stack test-stack bench-stack coverage quality browser node_modules bench bench-rounds bench-table bench-lines clean lock lock-upgrade lock-export translations

# Exactly the locked versions, each checked against its hash; then the project itself, editable,
# without dependencies (they all came from the lock; pip refuses editable installs among hashes).
$(STAMP): pyproject.toml requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --only-binary :all: -r requirements-test.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# The addresses phones open: this machine's IPv4 addresses. Links are made only for these
# names (TRUSTED_HOSTS): a forged Host header gets a 400, not an edit link on another host.
# Set PUBLIC_URL (or TRUSTED_HOSTS) in instance/config.py to serve under another name.
IPS = $(shell hostname -I 2>/dev/null | tr ' ' '\n' | grep -v ':')
LOCAL_HOSTS = $(subst $(eval) ,$(comma),$(strip localhost 127.0.0.1 $(shell hostname 2>/dev/null) $(shell hostname 2>/dev/null).local $(IPS)))
comma := ,

# After changing the dependencies in pyproject.toml: the lock again, keeping every version that
# still fits. tests/test_lock.py fails until it is done.
lock: $(STAMP)
	$(BIN)/uv lock
	$(MAKE) --no-print-directory lock-export

# Every dependency to its newest release that pyproject.toml allows.
lock-upgrade: $(STAMP)
	$(BIN)/uv lock --upgrade
	$(MAKE) --no-print-directory lock-export

lock-export:
	$(LOCK_EXPORT) --extra postgres --extra redis -o requirements.txt
	$(LOCK_EXPORT) --extra test --extra postgres --extra redis -o requirements-test.txt

# The pages' words in every language: extract them (babel.cfg) into the template, bring each
# catalogue up to it (a new language's is made), then compile the catalogues. The compiled .mo
# files are committed, so a clone runs without this step; run it after changing any words, fill
# in the new or changed ones (tests/web/test_languages.py fails on one missing or fuzzy) in the
# words of docs/glossary.md (tests/web/test_glossary.py holds them to it), and run it again to compile.
TRANSLATIONS := scorekeeper/web/translations
LANGUAGES := de es fr fi

translations: $(STAMP)
	@mkdir -p $(TRANSLATIONS)
	$(BIN)/pybabel --quiet extract -F babel.cfg -k N_ -k lazy_gettext -k stage_sentence:2 -k round_sentence:2 -k round_words --no-wrap --add-location=file --sort-by-file \
		--project=Scorekeeper --copyright-holder="Scorekeeper's authors" -o $(TRANSLATIONS)/messages.pot scorekeeper templates
	@for lang in $(LANGUAGES); do \
		$(BIN)/pybabel --quiet update --init-missing --no-wrap --no-fuzzy-matching --ignore-obsolete \
			-i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) -l $$lang || exit 1; \
	done
	$(BIN)/pybabel compile --statistics -d $(TRANSLATIONS)

run: $(STAMP)
	$(BIN)/flask --app scorekeeper backup --before-upgrade
	$(BIN)/flask --app scorekeeper db upgrade
	@# Migrations change the schema only: summaries missing or worked out by an older logic, anew.
	$(BIN)/flask --app scorekeeper games rebuild --if-stale
	@echo ""
	@# The club key: made (and its link printed) on the first start only.
	@$(BIN)/flask --app scorekeeper club-key --first --base-url http://localhost:$(PORT) $(foreach ip,$(IPS),--base-url http://$(ip):$(PORT))
	@echo ""
	@echo "Scorekeeper is starting. Open it:"
	@echo "  on this machine:           http://localhost:$(PORT)/"
	@for ip in $(IPS); do echo "  on a phone on this network: http://$$ip:$(PORT)/"; done
	@echo ""
	@echo "On plain HTTP a phone records, corrects and plays a whole game without signal while the page"
	@echo "stays open. A reload without signal, the screen kept awake and sending with the app closed"
	@echo "need HTTPS: docs/running.md, \"Plain HTTP on the table's Wi-Fi, and what needs HTTPS\"."
	@echo ""
	@# One process (waitress): the limits count once for the whole server. `make bench` and the
	@# tests that need a real server start it with this same command (tests/server.py).
	SCOREKEEPER_LOCAL_HOSTS=$(LOCAL_HOSTS) $(BIN)/flask --app scorekeeper serve --host $(HOST) --port $(PORT) --threads $(THREADS)

browser:
	@sh scripts/ensure-chromium.sh

# The internet set-up of deploy/ on this machine, throw-away, in the foreground: Caddy with its
# own local certificate authority at https://scores.test:$(STACK_PORT)/ (on loopback), two app
# servers, PostgreSQL and Redis, all under .stack/ (docs/running.md, "Trying it here"). Ctrl-C
# stops it. Installs Caddy, Redis and PostgreSQL from Debian when missing.
STACK_PORT ?= 8443
stack: $(STAMP)
	@sh scripts/ensure-stack-tools.sh
	STACK_PORT=$(STACK_PORT) $(BIN)/python scripts/stack.py

# The stack's own tests (tests/stack): a phone through HTTPS, several servers, failures. Each
# test module starts a stack of its own; not part of `make test` (they take minutes).
test-stack: $(STAMP) browser
	@sh scripts/ensure-stack-tools.sh
	@sh scripts/ensure-chromium.sh chromium
	SCOREKEEPER_STACK_TESTS=1 $(BIN)/python -m pytest -p no:randomly --durations=10 tests/stack

# npm ci only when node_modules is missing or the lock changed. --ignore-scripts: vnu-jar's
# postinstall would download a Java runtime; the machine's Java 17 runs vnu.jar.
$(NODE_STAMP): package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

node_modules: $(NODE_STAMP)

# The phone's script (static/js/), on Node's own test runner: no browser; its pages are
# linkedom's DOM (package.json), so node_modules comes first.
NODE_TEST = node --test tests/js/

# pytest's workers in make test: one more than the cores. A browser test or a gate keeps its worker
# waiting on Chromium and Chromium on the worker's server, half a core each at best: two workers
# on two cores left about one idle (tests/browser alone, loaded machine: 296 s on 2, 258 s on 3).
# Four workers on two cores were no steadier (the whole suite 324 to 363 s, against 355 s on
# three) and left a browser test of the PostgreSQL pass waiting past its 30 s once; six: 371 s.
WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

# Every test: the phone's script on Node first (seconds), then pytest, the browser tests, the
# quality gates (tests/quality: axe-core, vnu, Lighthouse) and schemathesis included, every
# Hypothesis property with its whole number of examples (the "thorough" profile, tests/conftest.py).
test: $(STAMP) browser $(NODE_STAMP)
	$(NODE_TEST)
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal --durations=15 --hypothesis-profile=thorough

# The inner loop, under a minute: the engine, the store, files, the club and the web tests, with a
# fifth of the Hypothesis examples (the "quick" profile), and the phone's script on Node. Not the
# browser tests, the quality gates, schemathesis nor the tests marked slow: `make test` has them.
CHECK_PATHS := scorekeeper/rules tests/rules tests/store tests/files tests/club tests/web tests/js tests/test_architecture.py
check: $(STAMP) $(NODE_STAMP)
	$(NODE_TEST)
	$(BIN)/python -m pytest -q -n auto --hypothesis-profile=quick -m "not slow and not schemathesis" $(CHECK_PATHS)

# Only the phone's script's tests on Node.
test-js: $(NODE_STAMP)
	$(NODE_TEST)

# The engine's figures of many games (tests/js/cases/), which the phone's replay is checked
# against on Node, written again: after a change to the rules, then commit them.
js-cases: $(STAMP)
	$(BIN)/python tests/js_cases.py

# Branch coverage of scorekeeper/ over every test but the quality gates (they check pages, not
# code paths): the least covered modules, then the total.
coverage: $(STAMP) browser
	$(BIN)/coverage erase
	$(BIN)/coverage run -m pytest -q -n $(WORKERS) -m "not quality" -p no:cacheprovider
	$(BIN)/coverage combine --quiet
	$(BIN)/coverage report | tail -n 25

# Only the quality gates, on as many workers as in `make test`.
quality: $(STAMP) browser $(NODE_STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) --dist worksteal -m quality tests/quality

# The whole suite again on a throw-away PostgreSQL server (installed from Debian when missing).
# The quality gates check pages, not the database: they ran once already, in `make test`.
test-postgres: $(STAMP) browser
	bash scripts/with-postgres.sh $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal --durations=15 -m "not quality"

# Requests per second and latency against a bare-Flask floor, on a small and a large history,
# on SQLite and then on PostgreSQL; the table load model (the most tables held, against the
# floor's); page sizes; taps per round (docs/performance.md). Installs
# wrk from Debian when missing. PostgreSQL: a throw-away server that bench/databases.py starts with
# scripts/with-postgres.sh (as test-postgres does; on port 5498, PGPORT_BENCH, so that both can
# run at once), or the one TEST_DATABASE_URL names. Without one it says so and benches SQLite alone.
bench: $(STAMP) browser
	$(BIN)/python -m bench.run --threads $(THREADS)

# Only recording a round, as `make bench` measures it, three times (about a minute): on SQLite, or
# with BENCH_ROUNDS_OPTS=--postgres on a throw-away PostgreSQL.
bench-rounds: $(STAMP)
	$(BIN)/python -m bench.rounds --threads $(THREADS) $(BENCH_ROUNDS_OPTS)

# Only the table load model, as `make bench` runs it (about five minutes, a large history
# seeded first): on SQLite, or with BENCH_TABLE_OPTS=--postgres on a throw-away PostgreSQL.
bench-table: $(STAMP)
	$(BIN)/python -m bench.table_load --threads $(THREADS) $(BENCH_TABLE_OPTS)

# The table load model through the internet set-up (bench/stack_load.py): Caddy over HTTPS in
# front of two app servers on a throw-away PostgreSQL, against one app server alone; a short
# run (2,000 games, 10 s windows; a few minutes). docs/performance.md has its figures.
bench-stack: $(STAMP)
	@sh scripts/ensure-stack-tools.sh
	$(BIN)/python -m bench.stack_load --threads $(THREADS) $(BENCH_STACK_OPTS)

# The lines of the app that exist only for speed (the pieces bench/speed_lines.py names).
bench-lines:
	$(PYTHON) -m bench.speed_lines

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis test-artifacts
