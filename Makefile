# The two commands a fresh machine needs (see README.md):
#   make build   builds every game in cards/ into output/
#   make test    runs the test suite
# Both create .venv and install what they need on first use.

PYTHON ?= python3
VENV   := .venv
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: build test validate bench clean

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

test: $(STAMP)
	$(VENV)/bin/python -m pytest -q

bench: $(STAMP)
	$(VENV)/bin/python benchmarks/run.py

clean:
	rm -rf output
