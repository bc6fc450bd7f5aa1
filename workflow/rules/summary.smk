# summary.smk: when the pipeline ends (all done, or some job failed), one table of the
# config's cipher runs: done (with the evaluation time and HElib-formula security),
# refused or failed (with the last message of its log: run_cipher's refusal, a rejected
# result, a signal), or not run yet. Printed on stderr and kept in <results_dir>/logs/summary.txt.
# (At the start, run.smk prints how many runs are done and how many are to run.)


def _reason(log):
    """The line of a failed job's log that says why (the last error-like line), or None."""
    try:
        with open(log, errors="replace") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        return None
    for line in reversed(lines):
        if line.startswith(("run_cipher:", "measure.py:", "bench_ops:")) or "Error" in line or "Rejected" in line:
            return line
    return lines[-1] if lines else "its log is empty"


def run_summary():
    """(text, number of runs done): one line per run of the config."""
    rows, done = [], 0
    for key, run in known_runs().items():
        record = os.path.join(R, "runs", f"{key}.json")
        try:
            rec = run_records.load_record(record, run)
            done += 1
            rows.append((key, "done", f"{rec['timings']['total_s']:.1f} s, {run['rounds']} rounds, "
                                      f"security {rec['params']['security']:.0f} bits (HElib's formula)"))
            continue
        except run_records.BadRecord:
            pass
        why = None
        logs = [os.path.join(R, "logs", kind, f"{key}.log") for kind in ("run", "annotate")]
        logs = sorted((p for p in logs if os.path.exists(p)), key=os.path.getmtime)
        if logs:  # the newest: the stage that failed last
            log = logs[-1]
            why = _reason(log)
        rows.append((key, "refused/failed", f"{why} (log: {log})") if why else (key, "not run", ""))
    width = max((len(k) for k, _, _ in rows), default=0)
    lines = [f"cipher runs: {done} of {len(rows)} done"]
    lines += [f"  {k:<{width}}  {status:<14}  {note}".rstrip() for k, status, note in rows]
    lines += selection_summary()
    return "\n".join(lines), done


def selection_summary():
    """The explorer's selection, with the security figures the target was checked by."""
    import csv

    path = os.path.join(R, "params", "selected.csv")
    if not config["stages"]["params"] or not os.path.exists(path):
        return []
    lines = ["selection (results/params/selected.csv):"]
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                lines.append(f"  {r['cipher']} at {r['security_target']} bits: none ({r['note']})")
                continue
            lines.append(f"  {r['cipher']} at {float(r['security_target']):g} bits: m={r['m']} ({r['blocks']} blocks), "
                         f"{r['bits']}-bit chain, c={r['c']}, key weight {r['hwt']}: HElib's formula "
                         f"{float(r['helib_bits']):.1f}, core-SVP {float(r['coresvp_bits']):.1f} bits; predicted "
                         f"{float(r['predicted_latency_s']):.1f} s on one thread ({r['security_source']})")
    return lines + cost_model_warnings()


def cost_model_warnings():
    """The cost model's own warnings (cbparams.cost_model: its reference circuits far from their
    predictions, a calibration on a busy machine), shown beside the selection they steered: which
    rings are planned and measured follows the model, so a loaded calibration can change the
    selected ring."""
    from cbparams.cost_model import calibration_warnings

    warnings = calibration_warnings(COST_MODEL)
    if not warnings:
        return []
    return ([f"the cost model ({COST_MODEL}), which chose the rings planned and measured, warns:"]
            + [f"  {w}" for w in warnings]
            + [f"  to calibrate again: remove {COST_MODEL} and run make run again on a quiet machine "
               "(the candidates, the selection and what depends on them are redone)"])


def print_summary():
    text, done = run_summary()
    print(text, file=sys.stderr)
    try:
        os.makedirs(os.path.join(R, "logs"), exist_ok=True)
        with open(os.path.join(R, "logs", "summary.txt"), "w") as f:
            f.write(text + "\n")
    except OSError as err:
        print(f"(summary not written: {err})", file=sys.stderr)


onsuccess:
    print_summary()


onerror:
    print_summary()
