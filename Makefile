# The two commands a fresh machine needs (see README.md):
#   make build   builds every game in cards/ into output/
#   make test    runs the test suite
# Both create .venv and install what they need on first use.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: build lint test test-fast test-all browser validate bench clean messages docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	$(VENV)/bin/python -m compileall -q generator  # as pip does for a regular install
	rm -f $(VENV)/.installed-*
	touch $@

build: $(STAMP)
	$(VENV)/bin/cardgen build

validate: $(STAMP)
	$(VENV)/bin/cardgen validate

# The preview page is tested in Debian's headless Chromium: installed here (as root) where it
# is missing, so that the tests themselves never install system packages.
browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else echo "make test: chromium and chromedriver are missing; install them: sudo apt-get install chromium chromium-driver" >&2; fi; \
	fi

# The gates: ruff (pyflakes' rules, pycodestyle's, lines of 100) and mypy ([tool.mypy]).
lint: $(STAMP)
	$(VENV)/bin/ruff check generator tests benchmarks
	$(VENV)/bin/mypy

test: $(STAMP) browser lint
	$(VENV)/bin/python -m pytest -q

# The inner loop (under 30 s): the unit tests of the rules and registries, and one cell
# of the combination matrix per feature (tests/test_matrix.py's sample), without the
# property tests (make test runs them).
FAST := tests/test_rules.py tests/test_plugins.py tests/test_matrix.py tests/test_architecture.py
test-fast: $(STAMP)
	$(VENV)/bin/python -m pytest -q -k "not property" $(FAST)

# Everything, with the whole combination matrix (every shape x font x language x duplex
# mode, each with every output) and a few hundred random games from the registries.
test-all: $(STAMP) browser
	CARDGEN_MATRIX=all $(VENV)/bin/python -m pytest -q

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/run.py
	$(VENV)/bin/python benchmarks/revisions.py
	$(VENV)/bin/python benchmarks/validate.py
	$(VENV)/bin/python benchmarks/png.py
	$(VENV)/bin/python benchmarks/preview.py
	$(VENV)/bin/python benchmarks/paper.py
	$(VENV)/bin/python benchmarks/routemap.py

clean:
	rm -rf output

# The message catalogues (generator/locale, docs/i18n.md): what the code marks for
# translation (_() and _n()) is extracted with Babel and merged into each language's
# catalogue; a message new to it is left untranslated, which tests/test_i18n.py reports.
# The docs' tables of options, made from their declarations (generator/options.py) in
# English and Japanese: tests/test_options.py fails until this has written them.
docs: $(STAMP)
	$(VENV)/bin/python -m generator.reference

messages: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -k N_ -k _n:1,2 --no-default-keywords \
	  --add-location=file --sort-by-file --omit-header -w 100 -o $(VENV)/cardgen.pot .
	$(VENV)/bin/pybabel update -i $(VENV)/cardgen.pot -d generator/locale -D cardgen -l ja \
	  --no-fuzzy-matching --ignore-obsolete -w 100
