"""Run one command and record, beside its output, what the result needs for provenance.

    measure.py --record OUT.json --threads N --repo DIR -- COMMAND ARGS...

Writes OUT.json with the host, the start date (UTC), the thread count, the git revision
of DIR and the command's peak resident memory (getrusage of the waited child, exact even
for runs shorter than Snakemake's benchmark sampling interval), then exits with the
command's status. Runs on the node that runs the job, so the host is the compute node's.
"""

import argparse
import json
import resource
import socket
import subprocess
import sys
import time


def git_revision(repo):
    try:
        out = subprocess.run(
            ["git", "-C", repo, "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True, text=True, timeout=30,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def measure(record, threads, repo, command):
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    status = subprocess.call(command)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # Linux: kilobytes
    with open(record, "w") as f:
        json.dump(
            {
                "host": socket.gethostname(),
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
