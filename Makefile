# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 2
STAMP := $(VENV)/.installed

.PHONY: run test test-postgres browser bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,postgres]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/flask --app scorekeeper backup --before-upgrade
	$(BIN)/flask --app scorekeeper db upgrade
	@echo ""
	@echo "Scorekeeper is starting. Open it:"
	@echo "  on this machine:           http://localhost:$(PORT)/"
	@for ip in $$(hostname -I 2>/dev/null); do case $$ip in *:*) ;; *) echo "  on a phone on this network: http://$$ip:$(PORT)/";; esac; done
	@echo ""
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) --access-logfile - --access-logformat '%(h)s %(t)s "%(m)s %(U)s" %(s)s %(b)s' 'scorekeeper:create_app()'

browser:
	@sh scripts/ensure-chromium.sh

test: $(STAMP) browser
	$(BIN)/python -m pytest

# The whole suite again on a throw-away PostgreSQL server (installed from Debian when missing).
test-postgres: $(STAMP) browser
	bash scripts/with-postgres.sh $(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts
