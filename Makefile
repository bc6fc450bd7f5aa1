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

.PHONY: all deps apt venv build run test test-cpp test-py tfhe test-tfhe test-slow clean distclean

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

# The TFHE peer (runners/tfhe, Rust, tfhe-rs from crates.io) is optional: it needs a cargo
# with rustc >= the tfhe crate's rust-version (scripts/find-cargo.sh says which is missing).
# Its build goes to $(BUILD)/tfhe; the first one compiles tfhe-rs (minutes).
TFHE_MANIFEST := runners/tfhe/Cargo.toml
TFHE_TARGET   := $(BUILD)/tfhe
TFHE_CARGO_FLAGS := --release --locked --manifest-path $(TFHE_MANIFEST) --target-dir $(TFHE_TARGET)

tfhe:
	@cargo=$$(scripts/find-cargo.sh) || { echo "make tfhe: cannot build the TFHE runner (see above)"; exit 1; }; \
	  echo "$$cargo build $(TFHE_CARGO_FLAGS)"; "$$cargo" build $(TFHE_CARGO_FLAGS)

# Argument handling, the reference check and the whole AES circuit on an insecure tiny
# parameter set (seconds); skipped, with the reason, without a usable cargo.
test-tfhe:
	@if found=$$(scripts/find-cargo.sh 2>&1); then \
	  echo "$$found test $(TFHE_CARGO_FLAGS)"; "$$found" test $(TFHE_CARGO_FLAGS); \
	else echo "SKIP runners/tfhe tests: $$found"; fi

# Slow tests, not run by `make test`: one AES block at tfhe-rs's 128-bit default parameters
# (about 4 CPU minutes plus 1 for the key schedule, BENCHMARKS.md).
test-slow:
	@cargo=$$(scripts/find-cargo.sh) || { echo "make test-slow: no usable cargo (see above)"; exit 1; }; \
	  echo "$$cargo test $(TFHE_CARGO_FLAGS) -- --ignored"; "$$cargo" test $(TFHE_CARGO_FLAGS) -- --ignored

test: deps test-cpp test-tfhe test-py

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(VENV)
