# records.smk: the run records already in <results_dir>, checked before the jobs are planned
# (included by run.smk; functions only).
#
# Before the jobs are planned: a run record (or raw output) that was damaged after it was
# written (truncated, edited, copied from another run) is moved to <results_dir>/rejected/
# so that Snakemake sees it missing and rebuilds it, instead of counting it or failing in
# aggregate. Only the main Snakemake of a real run moves files, and only when no other
# Snakemake holds a lock here; a dry run lists what would be rebuilt.

import json
import time

from analysis import records as run_records


def _raw_fault(key, run):
    """Why the raw output of a run cannot make a record, or None."""
    from analysis import annotate  # pandas: imported only when a raw file is checked

    raw, env = (os.path.join(R, "raw", f"{key}{ext}") for ext in (".json", ".env.json"))
    try:
        with open(raw) as f:
            annotate.check_run(json.load(f), run)
        with open(env) as f:
            json.load(f)
    except (OSError, ValueError) as err:  # unreadable, not JSON, RunRejected
        return str(err)
    return None


def _set_aside(paths, why, act):
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    for path in paths:
        if not os.path.exists(path):
            continue
        if act:
            dest = os.path.join(R, "rejected", f"{os.path.relpath(path, R)}.{stamp}")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.replace(path, dest)
            logger.warning(f"{path}: {why}: moved to {dest}; it will be rebuilt")
        else:
            logger.warning(f"{path}: {why}: will be rebuilt")


def check_existing_results():
    """Set aside invalid records and raw outputs; the number of valid records."""
    locks = os.path.join(".snakemake", "locks")
    locked = os.path.isdir(locks) and bool(os.listdir(locks))
    act = workflow.is_main_process and not workflow.output_settings.dryrun and not locked
    done = 0
    for key, run in known_runs().items():
        record = os.path.join(R, "runs", f"{key}.json")
        raw = [os.path.join(R, "raw", f"{key}{ext}") for ext in (".json", ".env.json")]
        if os.path.exists(record):
            try:
                run_records.load_record(record, run)
                done += 1
                continue
            except run_records.BadRecord as err:
                _set_aside([record], f"invalid run record ({str(err).split(': ', 1)[-1]})", act)
        if os.path.exists(raw[0]):
            fault = _raw_fault(key, run)
            if fault:
                _set_aside(raw, f"invalid raw output ({fault})", act)
    return done


if workflow.is_main_process:
    _done = check_existing_results() if os.path.isdir(R) else 0
    _count = len(known_runs())
    logger.info(f"cipher runs: {_done} of {_count} done, {_count - _done} to run"
                + (" (and the selection's, once it is made)" if config.get("run_selected")
                   and not os.path.exists(SELECTED_YAML) else ""))
