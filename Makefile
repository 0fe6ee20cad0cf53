# Two entry points for a fresh machine: `make run` and `make test` (see README.md).
# Python 3.11 or newer: python3.11 where the system has it, else python3 (setup checks it in one line;
# `make run PYTHON=/path/to/python3.12` chooses another)
PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup run test test-slow bench golden clean

setup: $(VENV)/.installed

# The venv is made without pip (ensurepip installed and byte-compiled pip and setuptools: 7.8 s of
# setup's ~38 s, and 660 more modules to compile): uv goes into it through the system's pip
# (`pip --python`, pip >= 22.3; 4.3 s), else through pip bootstrapped in the venv as before. Use
# `.venv/bin/uv pip install ...` to add a package to it.
# The install goes through uv (from PyPI, into the venv): it fetches the wheels in parallel, where
# pip fetched one package at a time and compiled ~9,000 modules on one (`make setup` from a clean
# clone, cold caches, pip and uv in turn, load 8-11: pip 149 and 211 s wall, 52 and 57 s CPU; uv 76
# and 82 s wall, 39 and 47 s CPU; docs/testing.md). If uv cannot be installed or fails, pip does it.
# Bytecode: every recipe here runs with Python allowed to write it (PYTHONDONTWRITEBYTECODE, which
# this machine sets, is not passed on), so a module is compiled once, by the first process that
# imports it, and kept: the tests start many Python processes, and with PYTHONDONTWRITEBYTECODE
# none kept what it compiled (+7 s CPU per process importing numba, scipy, polars, statsmodels).
# Setup compiles, on every core, the toolkit's own packages and the installed packages its
# commands import (RUNTIME_PACKAGES; ~2,100 modules), so that a command run by hand where
# PYTHONDONTWRITEBYTECODE is set starts as it does for any user (`simulate --games 1e3 -q`
# 0.56 -> 0.49 s wall with the project's modules compiled, docs/cluster.md); the rest (scipy,
# statsmodels, dask, optuna, the test tools) is compiled as make test first imports it. Before,
# setup compiled all ~5,500 installed modules (23 s wall, 42 s CPU), of which make test imports
# 2,430 (docs/testing.md). A module edited later is compiled again as it is imported.
unexport PYTHONDONTWRITEBYTECODE
PROJECT_PACKAGES = cli simcore strategies analysis reports
RUNTIME_PACKAGES = numba llvmlite numpy polars pyarrow matplotlib PIL kiwisolver cycler pyparsing \
  dateutil pandas typer click rich shellingham filelock
COMPILE_PACKAGES = import compileall, re, sysconfig; sp = sysconfig.get_paths()["purelib"]; \
  compileall.compile_dir(sp, quiet=2, workers=0, rx=re.compile(re.escape(sp) + r"/(?!(" + \
  "|".join("$(RUNTIME_PACKAGES)".split()) + r")/)|/tests?/")); \
  [compileall.compile_dir(p, quiet=2) for p in "$(PROJECT_PACKAGES)".split()]
$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "make setup: needs Python 3.11 or newer, and $(PYTHON) is " + sys.version.split()[0] + ": give one with make run PYTHON=python3.11")'
	$(PYTHON) -m venv --without-pip $(VENV)
	( ( $(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check uv 2> /dev/null || \
	    ( $(BIN)/python -m ensurepip --default-pip > /dev/null && $(BIN)/python -m pip install --quiet uv ) ) && \
	  $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]' ) || \
	( echo "make setup: uv failed, installing with pip" && \
	  ( $(BIN)/python -m pip --version > /dev/null 2>&1 || $(BIN)/python -m ensurepip --default-pip > /dev/null ) && \
	  $(BIN)/python -m pip install --quiet --upgrade pip && \
	  $(BIN)/python -m pip install --quiet -e '.[dev]' )
	$(BIN)/python -c '$(COMPILE_PACKAGES)'
	touch $@

run: setup
	$(BIN)/simulate --games 1e6

# Two pytest workers (pytest-xdist): the suite is CPU-bound and every test writes under its own
# tmp_path. TEST_WORKERS=0 runs in one process. Before them, tests/warm_kernels.py compiles every
# game's kernels once, in TEST_WORKERS processes (a clean clone has no Numba cache: without it both
# workers, and the processes tests start, compiled the same kernels at once). --cpu-top lists the
# tests costing the most CPU after the run (budget: docs/testing.md). --dist loadfile keeps each
# test file on one worker, so a module-scoped fixture (a run, a report, a Dask cluster shared by
# the file's tests) is built once, not once per worker.
TEST_WORKERS ?= 2

test: setup
	$(BIN)/lint-imports && $(BIN)/python tests/warm_kernels.py -j $(TEST_WORKERS) && $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --cpu-top 15

# The slow tier: the long statistical checks (coverage by simulation, false-call rates) and the
# tests too costly for make test's budget (docs/testing.md). CI (.ci/run) runs it after make test,
# which has compiled the kernels it loads.
test-slow: setup
	$(BIN)/python -m pytest -q -m slow -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --cpu-top 15

bench: setup
	$(BIN)/python benchmarks/bench_middle_ages.py

golden: setup
	$(BIN)/balance golden --write

clean:
	rm -rf $(VENV) build *.egg-info
