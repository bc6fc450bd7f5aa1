"""Remove the lock that a killed Snakemake left in this directory, and only that.

    unlock_stale.py SNAKEMAKE [ARGS...]

Snakemake locks the files of a workflow in .snakemake/locks/ while it runs and removes the
lock when it ends; a Snakemake killed by SIGKILL (or a power cut) cannot, and the next
start stops with a LockException. This script, which `make run` calls first, runs
`SNAKEMAKE --unlock ARGS...` when there is a lock and no Snakemake process is running in
this directory (any process on this host whose working directory is this one and whose
command line runs snakemake). When one is running, the lock is kept and Snakemake will
say so. It cannot see Snakemake processes on other hosts sharing the directory.
"""

import os
import subprocess
import sys

LOCKS = os.path.join(".snakemake", "locks")


def snakemake_processes(here):
    """Pids of the processes other than this one running snakemake with `here` as cwd."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if os.path.realpath(f"/proc/{entry}/cwd") != here:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:  # ended meanwhile, or not ours to read
            continue
        if any(os.path.basename(a).startswith(b"snakemake") for a in argv[:3]):
            found.append(int(entry))
    return found


def main(argv):
    if not argv:
        print("usage: unlock_stale.py SNAKEMAKE [ARGS...]", file=sys.stderr)
        return 2
    if not os.path.isdir(LOCKS) or not os.listdir(LOCKS):
        return 0
    running = snakemake_processes(os.path.realpath("."))
    if running:
        print(f"unlock_stale.py: Snakemake is running in this directory (pid {', '.join(map(str, running))}): "
              "its lock is kept", file=sys.stderr)
        return 0
    print("unlock_stale.py: removing the lock a killed Snakemake left in .snakemake/locks "
          "(no Snakemake runs in this directory)", file=sys.stderr)
    done = subprocess.run([*argv, "--unlock"], capture_output=True, text=True)
    if done.returncode:
        print(done.stdout + done.stderr, file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
