# cipherbench: the two commands a user needs are `make run` and `make test`.
# Each installs what is missing (Debian packages, the Python venv), builds, and runs.
SHELL      := /bin/bash
PYTHON     ?= $(shell command -v python3.11 || command -v python3)
VENV       := .venv
VPY        := $(VENV)/bin/python
BUILD      := build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)
CONFIG     ?= config/config.yaml
CORES      ?= all

.PHONY: all deps apt venv build run run-config test test-cpp test-py clean distclean

all: build

deps: apt venv

apt:
	@bash scripts/install-apt.sh

# The venv is rebuilt only when requirements.txt changes.
venv: $(VENV)/.installed
$(VENV)/.installed: requirements.txt
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements.txt
	@touch $@

build: apt
	@cmake -S runners -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Before Snakemake: a missing CONFIG is named (Snakemake itself prints a traceback), and a
# lock left by a killed Snakemake is removed when none runs here (workflow/scripts/unlock_stale.py).
# Snakemake reads profiles/default (rerun-incomplete, keep-going) by itself.
run: run-config deps build
	@$(VPY) workflow/scripts/unlock_stale.py $(VENV)/bin/snakemake --configfile $(CONFIG)
	$(VENV)/bin/snakemake --cores $(CORES) --configfile $(CONFIG)

run-config:
	@test -f "$(CONFIG)" || { echo "make run: CONFIG=$(CONFIG): no such file (the configs: $$(ls config/*.yaml | grep -v depth_profiles | tr '\n' ' '))" >&2; exit 2; }

test-cpp: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-py: venv build
	$(VENV)/bin/pytest

test: deps test-cpp test-py

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(VENV)
