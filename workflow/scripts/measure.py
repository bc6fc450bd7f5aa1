"""Run one command and record, beside its output, what the result needs for provenance.

    measure.py --record OUT.json --threads N --repo DIR -- COMMAND ARGS...

Writes OUT.json with the host, the CPU model, the start date (UTC), the thread count, the
git revision of DIR and the command's peak resident memory (getrusage of the waited child,
exact even for runs shorter than Snakemake's benchmark sampling interval), then exits with
the command's status. Runs on the node that runs the job, so the host is the compute node's.

The command dies with the pipeline, so that no run is left computing (and later writing
its outputs) after Snakemake is gone:
- the command gets SIGTERM when this process dies, however it dies (Linux prctl
  PR_SET_PDEATHSIG, set in the child before exec);
- this process watches the Snakemake process named by $CB_PIPELINE_PID (set by the
  Snakefile; under SLURM, the job's own Snakemake) when it is one of its ancestors: when
  Snakemake ends, even by SIGKILL, the command is terminated. The shell between Snakemake
  and this process does not pass on a SIGKILL, hence the watch;
- SIGINT, SIGTERM and SIGHUP received here are passed on to the command.
A command ended by a signal gives exit status 128 + signal and no record.
"""

import argparse
import ctypes
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
GRACE_S = 10  # after SIGTERM, SIGKILL


def git_revision(repo):
    try:
        out = subprocess.run(
            ["git", "-C", repo, "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True, text=True, timeout=30,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def cpu_model():
    """'model name' of /proc/cpuinfo (the machine, for the report's captions), or 'unknown'."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def die_with_parent():
    """In the child before exec: SIGTERM when the process that started it dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the watch below still applies
        pass


def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            # the command name (field 2) may hold spaces: split after its closing ')'
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def is_ancestor(pid):
    p = os.getppid()
    while p and p > 1:
        if p == pid:
            return True
        p = parent_of(p)
    return False


def pipeline_pidfd():
    """A pidfd of the Snakemake process to outlive nothing, or None (not set, not an ancestor)."""
    try:
        pid = int(os.environ.get("CB_PIPELINE_PID", "0"))
    except ValueError:
        return None
    if pid <= 1 or not is_ancestor(pid) or not hasattr(os, "pidfd_open"):
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def terminate(child):
    if child.poll() is None:
        child.terminate()
        try:
            child.wait(GRACE_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def run(command):
    """Run `command` until it ends or the pipeline does; its exit status (128+sig if signalled)."""
    received = []

    def on_signal(signum, frame):
        received.append(signum)

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    watch = pipeline_pidfd()
    die_with_parent()  # this process too: when the shell that started it dies
    child = subprocess.Popen(command, preexec_fn=die_with_parent)
    child_fd = os.pidfd_open(child.pid) if hasattr(os, "pidfd_open") else None
    poller = select.poll()
    if child_fd is not None:
        poller.register(child_fd, select.POLLIN)
    if watch is not None:
        poller.register(watch, select.POLLIN)
    stopped = False  # the command was stopped from here (a signal passed on, the pipeline gone)
    while child.poll() is None:
        if received:
            stopped = True
            child.send_signal(received[-1])
            received.clear()
            try:
                child.wait(GRACE_S)
            except subprocess.TimeoutExpired:
                terminate(child)
            break
        events = dict(poller.poll(1000 if child_fd is not None else 200))
        if watch is not None and watch in events:
            print("measure.py: the pipeline (Snakemake) ended: stopping the run", file=sys.stderr)
            stopped = True
            terminate(child)
            break
    status = child.wait()
    if status < 0 and not stopped:
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        name = signal.Signals(-status).name
        why = ": the kernel's out-of-memory killer, or kill -9" if -status == signal.SIGKILL else ""
        print(f"measure.py: {os.path.basename(command[0])} ended by {name}{why} "
              f"(peak resident memory {peak_mb:.0f} MB)", file=sys.stderr)
    return 128 - status if status < 0 else status


def measure(record, threads, repo, command):
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    status = run(command)
    if status > 128:  # ended by a signal: an interrupted run leaves no record
        return status
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # Linux: kilobytes
    with open(record, "w") as f:
        json.dump(
            {
                "host": socket.gethostname(),
                "cpu": cpu_model(),
                "date": started,
                "threads": threads,
                "git_revision": git_revision(repo),
                "max_rss_mb": peak_kb / 1024,
                "exit_status": status,
            },
            f,
        )
        f.write("\n")
    return status


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", required=True)
    ap.add_argument("--threads", type=int, required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        ap.error("no command given after --")
    return measure(a.record, a.threads, a.repo, command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
