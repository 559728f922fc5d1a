# Method Playground: `make run` starts everything, `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
BACKEND_PORT  ?= 8000
FRONTEND_PORT ?= 8501
# The front end listens on loopback (a laptop app); FRONTEND_ADDRESS=0.0.0.0 serves other machines (hosted).
FRONTEND_ADDRESS ?= 127.0.0.1
export BACKEND_URL ?= http://127.0.0.1:$(BACKEND_PORT)

.PHONY: run test install migrate backend frontend lint typecheck bench clean

$(PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "error: $(PYTHON) not found (Python 3.11 is required)" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# torch is pinned to the CPU wheel that lies on disk here; installing it first keeps pip from
# resolving another torch build for the packages that depend on it.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet "torch==2.13.0"
	$(PY) -m pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(PY) -c "from backend.settings import get_settings as s; from db.session import upgrade_to_head as u; u(s().resolved_database_url)"

backend: install
	$(PY) -m backend.serve --host 127.0.0.1 --port $(BACKEND_PORT)

frontend: install
	$(PY) -m streamlit run app/main.py --server.address $(FRONTEND_ADDRESS) --server.port $(FRONTEND_PORT) --server.headless true --browser.gatherUsageStats false

# Both servers in one process group: Ctrl-C (or either one exiting) stops both.
run: migrate
	@echo "backend  -> $(BACKEND_URL)  (API docs at $(BACKEND_URL)/docs)"
	@echo "frontend -> http://$(FRONTEND_ADDRESS):$(FRONTEND_PORT)"
	@trap 'kill 0' INT TERM EXIT; \
	  $(PY) -m backend.serve --host 127.0.0.1 --port $(BACKEND_PORT) & \
	  $(PY) -m streamlit run app/main.py --server.address $(FRONTEND_ADDRESS) --server.port $(FRONTEND_PORT) --server.headless true --browser.gatherUsageStats false & \
	  wait -n

# Lint and types first (cheap), then every test. pytest exits 5 when it collects no test: that is a
# failure of the suite, not a pass.
test: install
	$(VENV)/bin/ruff check app backend db models tests benchmarks scripts devtools playground_client
	$(VENV)/bin/mypy models backend db playground_client
	OMP_NUM_THREADS=1 $(PY) -m pytest -q -p no:cacheprovider; status=$$?; \
	  if [ $$status -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi; exit $$status

lint: install
	$(VENV)/bin/ruff check app backend db models tests benchmarks scripts devtools playground_client

typecheck: install
	$(VENV)/bin/mypy models backend db playground_client

bench: install
	$(PY) benchmarks/bench_jobs.py

clean:
	rm -rf $(VENV) var .pytest_cache
