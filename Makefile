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

.PHONY: all deps apt venv build run test test-cpp test-py helib test-helib clean distclean

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

run: deps build
	$(VENV)/bin/snakemake --cores $(CORES) --configfile $(CONFIG)

test-cpp: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-py: venv build
	$(VENV)/bin/pytest

test: deps test-cpp test-py

# HElib 2.3.0 as a second backend (optional): builds HElib into .deps/helib-$(NTL_ROUTE)
# (scripts/build-helib.sh; HELIB_SRC=<checkout> / NTL_SRC=<checkout> to use local sources,
# NTL_ROUTE=debian: Debian's libntl-dev, NTL_ROUTE=native: NTL 11.5.1 built with NATIVE=on),
# then the runners with -DCB_HELIB_DIR into build-helib-$(NTL_ROUTE)/ (run_cipher and
# bench_ops --backend helib, the *_helib_test targets). Low priority, HELIB_JOBS jobs.
NTL_ROUTE  ?= debian
HELIB_JOBS ?= 2
HELIB_DIR  := .deps/helib-$(NTL_ROUTE)
HELIB_BUILD := build-helib-$(NTL_ROUTE)

helib: apt
	NTL_ROUTE=$(NTL_ROUTE) JOBS=$(HELIB_JOBS) HELIB_SRC=$(HELIB_SRC) NTL_SRC=$(NTL_SRC) bash scripts/build-helib.sh
	@cmake -S runners -B $(HELIB_BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCB_HELIB_DIR=$(abspath $(HELIB_DIR)) > /dev/null
	nice -n 15 cmake --build $(HELIB_BUILD) -j $(HELIB_JOBS)

test-helib: helib
	cd $(HELIB_BUILD) && ctest --output-on-failure -j $(HELIB_JOBS) -R 'HelibVsClear|HelibBackend\.|AesHelibTest|VisionHelibTest'

clean:
	rm -rf $(BUILD) build-helib-*

distclean: clean
	rm -rf $(VENV)
