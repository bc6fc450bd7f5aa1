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

# The lattice estimator (on no registry): this commit of github.com/malb/lattice-estimator,
# from ESTIMATOR_SRC=<a checkout or bare mirror> or cloned from upstream, into a git-ignored directory
# where the explorer finds it (sage/cbparams/estimator.py).
ESTIMATOR_DIR    := third_party/lattice-estimator
ESTIMATOR_COMMIT := 27a581bb8e9d49f5e9e2db315bd48ac769d5f5f5
ESTIMATOR_SRC    ?= https://github.com/malb/lattice-estimator

# `make notebook`: JupyterLab, installed into .venv on first use (make run/test do not need it).
JUPYTERLAB := jupyterlab==4.6.6

.PHONY: all deps apt venv build run test test-cpp test-py tfhe test-tfhe test-slow clean distclean estimator notebook run-config helib test-helib openfhe test-openfhe benchmarks

all: build

deps: apt venv

apt:
	@bash scripts/install-apt.sh

# The venv is brought up to date when requirements.txt or a package's metadata changes
# (an existing venv included: a pyproject.toml newer than the marker, e.g. one a pull
# added, reinstalls). The project's Python is two packages installed editable, imported
# by name everywhere (no sys.path edits): the explorer (sage/: cbparams, with its
# `cbparams` command) and the analysis (analysis/: `from analysis import tables`).
PACKAGES := sage analysis
venv: $(VENV)/.installed
$(VENV)/.installed: requirements.txt $(addsuffix /pyproject.toml,$(PACKAGES))
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements.txt
	$(VPY) -m pip install -q --no-deps --no-build-isolation $(addprefix -e ,$(PACKAGES))
	@touch $@

estimator:
	@bash scripts/get-estimator.sh $(ESTIMATOR_DIR) $(ESTIMATOR_COMMIT) $(ESTIMATOR_SRC)

# notebooks/explore.ipynb in JupyterLab; its python3 kernel is .venv's (Sage, cbparams).
notebook: venv build
	@test -x $(VENV)/bin/jupyter-lab || $(VPY) -m pip install -q $(JUPYTERLAB)
	$(VENV)/bin/jupyter lab notebooks/explore.ipynb

build: apt
	@cmake -S runners -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Before Snakemake: a missing CONFIG is named (Snakemake itself prints a traceback), and a
# lock left by a killed Snakemake is removed when none runs here (workflow/scripts/unlock_stale.py).
# Snakemake reads profiles/default (rerun-incomplete, keep-going) by itself.
# One Snakemake invocation: the parameter explorer's selection is a checkpoint (rule
# params_select), after which Snakemake plans the selected rings' runs (run_selected) in
# the same run. SNAKEMAKE_FLAGS are passed on (tests/test_make_run.py: --dry-run).
SNAKEMAKE_FLAGS ?=
run: run-config deps build
	@$(VPY) workflow/scripts/unlock_stale.py $(VENV)/bin/snakemake --configfile $(CONFIG)
	$(VENV)/bin/snakemake --cores $(CORES) --configfile $(CONFIG) $(SNAKEMAKE_FLAGS)

run-config:
	@test -f "$(CONFIG)" || { echo "make run: CONFIG=$(CONFIG): no such file (the configs: $$(ls config/*.yaml | tr '\n' ' '))" >&2; exit 2; }

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

# BENCHMARKS.md's tables, rerun in one sitting (benchmarks/registry.yaml declares each: its
# commands and how its table is built from their JSON records; benchmarks/regenerate.py runs
# them): BENCH=quick (default: a few minutes on 2 cores), all, or names separated by commas
# (`.venv/bin/python benchmarks/regenerate.py --list`). Every record's decryption check must
# pass. Writes results/benchmarks/<name>.md and BENCHMARKS.md, stamped with machine and date.
BENCH ?= quick
benchmarks: venv build
	$(VPY) benchmarks/regenerate.py --bench $(BENCH) --bin $(BUILD)/bin --out results/benchmarks

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

# OpenFHE as the F_p peer (optional): bench_ops --backend openfhe (runners/backend/openfhe_bench.h)
# against an OpenFHE install of the pinned release in OPENFHE_DIR (default .deps/openfhe,
# git-ignored; docs/openfhe.md says what it must be), built into build-openfhe/ with
# -DCB_OPENFHE_DIR (bench_ops only). Low priority, OPENFHE_JOBS jobs.
OPENFHE_TAG    := v1.5.1
OPENFHE_COMMIT := 1306d14f8c26bb6150d3e6ad54f28dfe1007689e
OPENFHE_DIR    ?= .deps/openfhe
OPENFHE_BUILD  := build-openfhe
OPENFHE_JOBS   ?= 2
OPENFHE_CONFIG  = $(OPENFHE_DIR)/lib/OpenFHE/OpenFHEConfig.cmake
CCACHE_FLAG    := $(if $(shell command -v ccache),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

openfhe:
	@test -f $(OPENFHE_CONFIG) || { echo "make openfhe: no OpenFHE at OPENFHE_DIR=$(OPENFHE_DIR) ($(OPENFHE_CONFIG) missing): install OpenFHE $(OPENFHE_TAG) (commit $(OPENFHE_COMMIT)) there (docs/openfhe.md)" >&2; exit 1; }
	@cmake -S runners -B $(OPENFHE_BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CCACHE_FLAG) -DCB_OPENFHE_DIR=$(abspath $(OPENFHE_DIR)) > /dev/null
	nice -n 15 cmake --build $(OPENFHE_BUILD) -j $(OPENFHE_JOBS) --target bench_ops

# Skips, with the reason, when OpenFHE is not installed in OPENFHE_DIR.
test-openfhe: venv
	@if test -f $(OPENFHE_CONFIG); then \
	  $(MAKE) --no-print-directory openfhe && \
	  CB_OPENFHE_BUILD=$(abspath $(OPENFHE_BUILD)) $(VENV)/bin/pytest -ra runners/backend/openfhe_bench_cli_test.py; \
	else echo "SKIP OpenFHE tests: no OpenFHE at OPENFHE_DIR=$(OPENFHE_DIR) ($(OPENFHE_CONFIG) missing)"; fi

clean:
	rm -rf $(BUILD) build-helib-* $(OPENFHE_BUILD)

distclean: clean
	rm -rf $(VENV)
