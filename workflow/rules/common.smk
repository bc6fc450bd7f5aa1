# common.smk: the experiment list and the target builders every stage uses.
#
# The config's `experiments` (and the explorer's selection, run_selected) expand into one job
# per (experiment, ring, chain, repetition): known_runs() holds one record per job (and per
# backend of the config's `backends`), keyed by its id "<name>/<backend>/m<m>_bits<bits>_rep<rep>",
# which is also the path of its result under <results_dir>/runs/.

import importlib
import itertools
import math
import os
import sys

from snakemake.settings.types import DeploymentMethod

# The explorer (cbparams, sage/) and the analysis (analysis/) are packages installed editable
# into the Python that runs Snakemake (`make venv`: pip install -e sage, pip install -e
# analysis); the rules, their scripts and `python -m cbparams.<module>` import them by name.
for _package, _folder in (("cbparams", "sage"), ("analysis", "analysis")):
    try:
        importlib.import_module(_package)
    except ImportError:
        raise WorkflowError(f"{_package} is not installed in {sys.executable}: run `make venv` "
                            f"(it runs `pip install -e {_folder}`)")
# Under --sw-deployment-method conda the jobs run the conda envs' python, where neither is
# installed: they find this checkout's through PYTHONPATH (set here, inherited by the jobs).
CONDA_JOBS = DeploymentMethod.CONDA in workflow.deployment_settings.deployment_method
if CONDA_JOBS:
    os.environ.update(PYTHONPATH=os.pathsep.join([workflow.basedir, os.path.join(workflow.basedir, "sage")]))


class ConfigError(ValueError):
    """A config that passes the JSON schema but cannot be run (names the offending key)."""


R = config["results_dir"]
BUILD_DIR = config["build_dir"]
RUN_CIPHER = os.path.join(BUILD_DIR, "bin", "run_cipher")
BENCH_OPS = os.path.join(BUILD_DIR, "bin", "bench_ops")
# The build rule's output: a flag file in the results folder (see build.smk).
BUILD_STAMP = os.path.join(R, "build", "runners.done")
# HElib's runners (make helib, see helib.smk): their own build folder per NTL route.
HELIB_ROUTE = config.get("helib_ntl_route", "debian")
HELIB_BUILD_DIR = os.path.join(workflow.basedir, f"build-helib-{HELIB_ROUTE}")
HELIB_STAMP = os.path.join(R, "build", f"helib-{HELIB_ROUTE}.done")
RUN_ID = "{name}/{backend}/m{m}_bits{bits}_rep{rep}"
# A ring without bits runs at the engine's planned chain: its files say bitsplan.
PLAN = "plan"
# What resources assume for a planned chain before it is known (the catalog's ciphers
# plan 500 to 3000 bits; a one-thread run below threads_from_mega_phi_bits either way on
# the small rings configs leave to the planner).
PLAN_BITS_GUESS = 2000

RUNNERS_DIR = os.path.join(workflow.basedir, "runners")


def newest_runner_source():
    """(mtime, path) of the newest non-test source under runners/, to warn about a stale build."""
    newest = (0.0, None)
    for root, _, files in os.walk(RUNNERS_DIR):
        for f in files:
            if f.endswith((".h", ".cpp", ".txt")) and not f.endswith(("_test.cpp", "_bench.cpp")):
                path = os.path.join(root, f)
                newest = max(newest, (os.path.getmtime(path), path))
    return newest


if os.path.exists(RUN_CIPHER) and os.path.exists(BUILD_STAMP):
    _mtime, _source = newest_runner_source()
    if _mtime > os.path.getmtime(RUN_CIPHER):
        logger.warning(
            f"{RUN_CIPHER} is older than {_source}: run `make build` to rebuild it "
            "(finished results are kept; new runs use whatever binary is there)"
        )

wildcard_constraints:
    name="[a-z0-9][a-z0-9-]*",
    backend="engine|helib",
    m=r"\d+",
    bits=r"\d+|plan",
    rep=r"\d+",


def multiplicative_order(p, m):
    """d = ord_m(p), the degree of the slots GF(p^d) of Z[X]/(Phi_m, p) (p coprime to m)."""
    k, x = 1, p % m
    while x != 1:
        x, k = x * p % m, k + 1
    return k


def euler_phi(m):
    """phi(m) by trial division (m is at most a few hundred thousand)."""
    result, n, p = m, m, 2
    while p * p <= n:
        if n % p == 0:
            while n % p == 0:
                n //= p
            result -= result // p
        p += 1
    return result - result // n if n > 1 else result


def _experiment_defaults():
    """The schema's defaults of an experiment's optional keys (c, hwt, linear): one place for them."""
    import yaml

    with open(os.path.join(workflow.basedir, "config", "schema", "config.schema.yaml")) as f:
        schema = yaml.safe_load(f)
    props = schema["$defs"]["experiment"]["properties"]
    return {k: v["default"] for k, v in props.items() if "default" in v}


EXPERIMENT_DEFAULTS = _experiment_defaults()


# The cipher catalog is the engine's (run_cipher --list-ciphers, read by cbparams.catalog):
# ciphers, instances (field degree n, state size s, rounds) and packings are checked against
# it. Before the first build there is no catalog to ask: the checks wait for it (the runs
# themselves refuse what the engine does not have).
from cbparams import catalog as CATALOG

CATALOG.use_run_cipher(RUN_CIPHER)
HAVE_CATALOG = os.path.exists(RUN_CIPHER)
if not HAVE_CATALOG:
    logger.warning(f"{RUN_CIPHER} is not built yet: the experiments' ciphers are checked against the "
                   "catalog once it is (make build)")


# The packing with one bit per slot (run_cipher --packing, the engine's catalog.h kBitSliced).
BIT_SLICED = "bit-sliced"


def experiment_instance(exp, where):
    """The catalog instance of an experiment (None before the first build); ConfigError for
    a cipher, instance, packing or round count the catalog does not have."""
    if not HAVE_CATALOG:
        return None
    try:
        inst = CATALOG.instances()[CATALOG.instance_of(exp)]
    except CATALOG.CatalogError as e:
        raise ConfigError(f"{where}: {e}")
    if exp["packing"] not in inst.packings:
        have = inst.packings
        listed = ", ".join(have[:-1]) + " or " + have[-1] if len(have) > 1 else have[0]
        raise ConfigError(f"{where}: packing={exp['packing']!r}: {inst.display} has {listed}")
    if exp["rounds"] > inst.rounds:
        raise ConfigError(f"{where}: rounds={exp['rounds']}: {inst.display} has 1..{inst.rounds}")
    return inst


def _expand_runs(cfg):
    """One record per job; raises ConfigError for what the schema cannot express."""
    runs, names = {}, set()
    for i, exp in enumerate(cfg["experiments"]):
        where = f"experiments[{i}] (name={exp['name']!r})"
        if exp["name"] in names:
            raise ConfigError(f"{where}: duplicate experiment name; names must be unique")
        names.add(exp["name"])
        inst = experiment_instance(exp, where)
        n = inst.n if inst else exp.get("field_bits", 1)
        p = inst.p if inst else exp.get("p", 2)  # the catalog's prime (exp's p picked the instance)
        bits_in_slots = exp["packing"] == BIT_SLICED  # slots hold bits: GF(2) is in every ring
        slot_n = 1 if bits_in_slots else n
        for j, ring in enumerate(exp["rings"]):
            m = ring["m"]
            if m % 2 == 0 and p == 2:
                raise ConfigError(f"{where}.rings[{j}]: m={m} is even: the ring needs odd m")
            if m % 2 == 0 and m & (m - 1):
                raise ConfigError(f"{where}.rings[{j}]: m={m} is even but not a power of two: the ring at "
                                  f"p={p} needs odd m or m = 2^k")
            if m % p == 0:
                raise ConfigError(f"{where}.rings[{j}]: p={p} divides m={m}: the plaintext modulus must be "
                                  f"coprime to m")
            d = multiplicative_order(p, m)
            if d % slot_n:
                raise ConfigError(
                    f"{where}.rings[{j}]: m={m} has slots GF({p}^{d}) (d = ord_m({p}) = {d}), "
                    f"which do not contain GF({p}^{n}): the field degree {n} must divide d"
                )
            bits_list = ring.get("bits", PLAN)
            bits_list = bits_list if isinstance(bits_list, list) else [bits_list]
            target = ring.get("security_target")
            if target is not None and ring.get("bits") is not None:
                raise ConfigError(f"{where}.rings[{j}]: m={m} gives bits={ring['bits']} and security_target={target}: "
                                  f"a security target chooses the digits and key weight and plans the chain, "
                                  f"drop one of them")
            if target is not None and "helib" in cfg.get("backends", ["engine"]):
                raise ConfigError(f"{where}.rings[{j}]: m={m} has security_target={target}: the HElib backend "
                                  f"has no planner to choose digits and key weight for it")
            if PLAN in bits_list and "helib" in cfg.get("backends", ["engine"]):
                raise ConfigError(f"{where}.rings[{j}]: m={m} has no bits: the HElib backend has no planner, "
                                  f"give the chain's bits")
            for bits, backend, rep in itertools.product(
                bits_list, cfg.get("backends", ["engine"]), range(cfg["repetitions"])
            ):
                run = dict(
                    name=exp["name"],
                    backend=backend,
                    cipher=exp["cipher"],
                    field_bits=exp.get("field_bits"),
                    state_size=exp.get("state_size"),
                    p=exp.get("p"),
                    state=inst.s if inst else exp.get("state_size"),  # elements per block
                    # ciphertexts per state: packed 1, sliced one per element, bit-sliced one per bit
                    ciphertexts=(1 if exp["packing"] == "packed" else
                                 (inst.s * (inst.n if bits_in_slots else 1) if inst else None)),
                    packing=exp["packing"],
                    linear=exp.get("linear", EXPERIMENT_DEFAULTS["linear"]),
                    rounds=exp["rounds"],
                    blocks=ring.get("blocks", exp.get("blocks")),
                    c=exp.get("c", EXPERIMENT_DEFAULTS["c"]),
                    # with a security target and no hwt of its own the engine chooses the
                    # weight (None here; validate filled in the schema's default: config.smk)
                    hwt=(None if target is not None and exp["name"] not in EXPLICIT_HWT
                         else exp.get("hwt", EXPERIMENT_DEFAULTS["hwt"])),
                    security_target=target,
                    m=m,
                    phi=euler_phi(m),
                    d=d,
                    bits=bits,
                    rep=rep,
                    seed=cfg["seed"] + rep,
                )
                runs[RUN_ID.format(**run)] = run
    return runs


# The explorer's selection (run_selected): <results_dir>/params/selected.yaml, made by the
# checkpoint params_select (params.smk). Its experiments join the config's in the same
# Snakemake invocation: what needs every run (the run records, aggregate, the cost check,
# the Pareto figures) asks all_runs(), which waits for the checkpoint; once it is done,
# Snakemake evaluates those inputs again and plans the selected rings' runs.
SELECTED_YAML = os.path.join(R, "params", "selected.yaml")


def _selected_experiments():
    """The selection's experiments as selected.yaml has them now ([] before it is made),
    but for those named like one of the config's (the config's win)."""
    import yaml

    if not config.get("run_selected") or not os.path.exists(SELECTED_YAML):
        return []
    with open(SELECTED_YAML) as f:
        selected = (yaml.safe_load(f) or {}).get("experiments") or []
    names = {x["name"] for x in CONFIG_EXPERIMENTS}
    return [e for e in selected if e["name"] not in names]


def all_experiments(wildcards=None):
    """The config's experiments, then the selection's (as selected.yaml has them now)."""
    return CONFIG_EXPERIMENTS + _selected_experiments()


_RUNS_OF = {}  # the runs of each experiment list seen (the selection is read many times)


def known_runs():
    """One record per job, keyed by run id: the config's runs, then the selection's as
    selected.yaml has them now (none before it is made)."""
    experiments = all_experiments()
    key = repr(experiments)
    if key not in _RUNS_OF:
        try:
            _RUNS_OF[key] = _expand_runs(dict(config, experiments=experiments))
        except ConfigError as err:
            raise WorkflowError(f"invalid config: {err}")
    return _RUNS_OF[key]


def all_runs():
    """known_runs() once the selection is made. An input function that calls this waits
    for the checkpoint params_select when the config runs the explorer."""
    if config["stages"]["params"]:
        checkpoints.params_select.get()
    return known_runs()


CONFIG_EXPERIMENTS = list(config["experiments"])
try:
    if config.get("run_selected") and not config["stages"]["params"]:
        raise ConfigError("run_selected: true needs stages.params: true (the selection is the explorer's)")
    if not CONFIG_EXPERIMENTS and not config.get("run_selected"):
        raise ConfigError("experiments is empty: give at least one experiment (or run_selected: true)")
    CONFIG_RUNS = _expand_runs(config)  # the config's own runs, checked when the config loads
except ConfigError as err:
    raise WorkflowError(f"invalid config: {err}")
known_runs()  # and the selection's, when it is already made


def run_record(wildcards):
    """The job record of a run's wildcards (fails clearly for a run not in the config)."""
    key = RUN_ID.format(**wildcards)
    runs = known_runs()
    if key not in runs:
        raise WorkflowError(f"run {key} is not in the config's experiments")
    return runs[key]


def run_cipher_args(wildcards):
    """Command-line arguments of run_cipher for one run (all but --json)."""
    r = run_record(wildcards)
    args = ["--backend", {"engine": "bgv", "helib": "helib"}[r["backend"]], "--cipher", r["cipher"]]
    if r.get("p") is not None:
        args += ["--p", r["p"]]
    if r["field_bits"] is not None:
        args += ["--field-bits", r["field_bits"]]
    if r["state_size"] is not None:
        args += ["--state-size", r["state_size"]]
    args += [
        "--rounds", r["rounds"], "--packing", r["packing"], "--linear", r["linear"],
        "--m", r["m"], *([] if r["bits"] == PLAN else ["--bits", r["bits"]]),
        "--c", r["c"], *([] if r["hwt"] is None else ["--hwt", r["hwt"]]), "--seed", r["seed"],
    ]
    if r.get("security_target") is not None:
        args += ["--security-target", r["security_target"]]
    if r["blocks"] is not None:
        args += ["--blocks", r["blocks"]]
    return " ".join(str(a) for a in args)


def run_binary(wildcards):
    """run_cipher of the run's backend: the engine's build, or HElib's (make helib)."""
    if run_record(wildcards)["backend"] == "helib":
        return os.path.join(HELIB_BUILD_DIR, "bin", "run_cipher")
    return RUN_CIPHER


def run_build_stamp(wildcards):
    """The build flag a run waits for: the engine's runners or HElib's."""
    return HELIB_STAMP if run_record(wildcards)["backend"] == "helib" else BUILD_STAMP


def run_size(r):
    """phi(m) x chain bits, in units of 10^6: what memory and time scale with (a planned
    chain, unknown before its run, counts as PLAN_BITS_GUESS bits)."""
    return r["phi"] * (PLAN_BITS_GUESS if r["bits"] == PLAN else r["bits"]) / 1e6


def run_mem_mb(wildcards):
    r = run_record(wildcards)
    model = config["resources"]
    return max(model["min_mem_mb"], math.ceil(run_size(r) * model["mem_bytes_per_phi_bit"]))


def run_threads(wildcards):
    """The config's threads, or 1 for rings too small to gain from OpenMP."""
    r = run_record(wildcards)
    if run_size(r) < config["resources"]["threads_from_mega_phi_bits"]:
        return 1
    return config["threads"]


def run_job_cores(wildcards):
    """The cores Snakemake holds for a run job: on one machine every core it was given, so
    that nothing else (another run, the Python rules) shares the machine while a run is
    timed: in `make run` the one-thread runs that shared the cores with other runs and the
    Sage rules took 10-39% longer than alone (BENCHMARKS.md, "Cost model and selection").
    On a cluster a job has its own allocation: its threads."""
    return held_cores(run_threads(wildcards))


def held_cores(threads):
    """Every core Snakemake was given on one machine (at least `threads`), `threads` on a
    cluster: what a job that times something holds (run_job_cores)."""
    cores = workflow.resource_settings.cores if workflow.resource_settings else None
    if workflow.non_local_exec or not isinstance(cores, int):
        return threads
    return max(threads, cores)


def run_runtime_min(wildcards):
    r = run_record(wildcards)
    model = config["resources"]
    seconds = run_size(r) * r["rounds"] * model["seconds_per_round_per_mega_phi_bit"]
    seconds *= r["ciphertexts"] or r["state"] or 1  # the ciphertexts of a state (see _expand_runs)
    return max(model["min_runtime_min"], math.ceil(seconds / 60))


def run_path(kind, suffix):
    """<results_dir>/<kind>/<run id pattern><suffix>, with the run wildcards."""
    return os.path.join(R, kind, f"{RUN_ID}{suffix}")


def run_files(kind, ext="json"):
    """An input function: <results_dir>/<kind>/<run id>.<ext> for every run, the selection's
    included (it waits for the selection: all_runs)."""
    return lambda wildcards: [os.path.join(R, kind, f"{key}.{ext}") for key in all_runs()]


PARAMS_OUTPUTS = [
    os.path.join(R, "params", f)
    for f in ("cyclotomics.csv", "security.csv", "selected.csv", "ranked.csv", "selected.yaml", "sagechecks.json")
] + [os.path.join(R, "cost", f) for f in ("model.json", "prediction_error.csv")]
TABLES = [
    os.path.join(R, "tables", f"{t}.{ext}")
    for t in ("table1_vision_ops", "table2_totals", "table3_paper_vs_ours")
    for ext in ("csv", "md", "html")
]
FIGURES = [
    "fig3_aes_vs_vision_round",
    "round_time_capacity",
    "vision_ops_vs_state",
    "ours_vs_published",
    "engine_vs_helib",
]


def figure_files(ext):
    return [os.path.join(R, "figures", f"{f}.{ext}") for f in FIGURES]


def security_estimates(wildcards):
    """The explorer's security estimates join table 2 when its stage is on."""
    return [os.path.join(R, "params", "security.csv")] if config["stages"]["params"] else []


def all_targets():
    # The run records themselves too: Snakemake does not rebuild a deleted intermediate file
    # when what was made from it (the tables) looks up to date; asked for here, a missing
    # record is rebuilt, and then the tables. The selection's runs: selected_run_targets.
    targets = [os.path.join(R, "runs", f"{key}.json") for key in CONFIG_RUNS] + TABLES
    targets += figure_files("png") + figure_files("pdf")
    if config["stages"]["params"]:
        targets += PARAMS_OUTPUTS + pareto_files()
    return targets


def selected_run_targets(wildcards):
    """The run records of the selection's rings (an input function: waits for the selection)."""
    return [os.path.join(R, "runs", f"{key}.json") for key in all_runs() if key not in CONFIG_RUNS]


def binary_inputs(*paths):
    """The build flag, and the binaries themselves once built (a rebuild reruns the rule)."""
    return [BUILD_STAMP] + [p for p in paths if os.path.exists(p)]


def planned_files(wildcards):
    """The plans params_select needs: the candidates marked plan = 1."""
    import csv

    from cbparams.select import target_label  # the plans' file names are the explorer's

    with open(checkpoints.params_candidates.get().output[0], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["plan"] == "1"]
    return [os.path.join(PARAMS_DIR, "plans", r["cipher"],
                         f"m{r['m']}_hwt{r['hwt']}_t{target_label(r['security_target'])}_{r['packing']}.json")
            for r in rows]


def pareto_files():
    """One Pareto figure per cipher instance the explorer selects for (analysis/pareto.py)."""
    ciphers = PARAMS_SETTINGS["ciphers"]  # params.smk
    return [os.path.join(R, "figures", f"pareto_{c}.{ext}") for c in ciphers for ext in ("png", "pdf")]
