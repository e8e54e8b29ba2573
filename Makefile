# Every target creates .venv when missing and installs the package with its test extras,
# so each works on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
VASSAL_CHECK := ../shared/tools/vassal-check

.PHONY: build test bench bench-setup fuzz install bytecode vassal-check browser clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP) bytecode

# The package's bytecode, as `pip install` writes it for an installed package: an editable install never
# gets it where PYTHONDONTWRITEBYTECODE is set, and every command then compiles hexwright from source
# (about 70 ms of each). Only files changed since their .pyc are compiled again.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q authoring

# The real VASSAL engine for the module tests, when the shared checker is beside the project
# (idempotent; the tests skip with a reason where it is absent).
vassal-check:
	@if [ -d $(VASSAL_CHECK) ]; then bash $(VASSAL_CHECK)/setup.sh; \
	else echo "vassal-check not found at $(VASSAL_CHECK): module engine tests will be skipped"; fi

# Debian's Chromium and its driver for the `serve` page tests and bench (idempotent; needs root and apt-get,
# else the tests skip with a reason).
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) \
	  || echo "chromium could not be installed: the serve page tests will be skipped"; \
	else echo "chromium/chromium-driver absent (install them as root): the serve page tests will be skipped"; fi

build: install
	$(BIN)/hexwright build all

test: lint vassal-check browser
	$(BIN)/python -m pytest

# The formatter and the linter (settings in pyproject.toml): `ruff format authoring tests` fixes the first.
lint: $(STAMP)
	$(BIN)/ruff format --check --quiet authoring tests tools
	$(BIN)/ruff check --quiet authoring tests tools

# The quick tier while working (about 80 CPU-s; its budget is 60): everything but the tests marked `pytest.mark.slow` next to
# them (the engine, the browser, mypy, whole builds of the bundled games, process lifecycles); docs/testing.md.
test-fast: lint
	$(BIN)/python -m pytest -m "not slow"

# make bench [REPEAT=N] [ONLY=load|build|clean|module|art|serve|loop|memory] [PROFILE=1]: issue 49's goals table at the end
bench: install
	$(BIN)/python tests/bench/run.py $(if $(REPEAT),--repeat $(REPEAT)) $(if $(ONLY),--only $(ONLY)) $(if $(PROFILE),--profile)

# Once, before `make bench ONLY=module` can set pywargame beside hexwright: .venv-pywargame (Python 3.12+) with
# pywargame from PyPI. The bench itself fetches nothing: without it, the comparison is skipped with this hint.
bench-setup: install
	$(BIN)/python tests/bench/bench_pywargame.py --setup

# Nightly-style fuzzing: 10,000 mutated inputs (make test runs a 500-case slice of the same test).
fuzz: $(STAMP)
	$(BIN)/python -m pytest tests/fuzz -m fuzz --hypothesis-profile=nightly

clean:
	rm -rf build
