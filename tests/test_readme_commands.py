"""Every command README.md shows parses (issue 47, Tests).

The commands are the lines of README.md's ```sh code blocks (continuation lines joined,
comments dropped). Each is checked by what it starts:

- build/bin/<exe>: `<exe> --help` exits 0 and lists every option the README gives it
  (skipped, with the reason, when the build is absent);
- .venv/bin/cbparams <sub>: `cbparams <sub> --help` exits 0 and lists every option given;
- .venv/bin/snakemake: its options are Snakemake's (`snakemake --help`);
- make <target> [CONFIG=...]: `make -n <target>` knows the target; a CONFIG it names is a config
  `snakemake -n` accepts (config/mine.yaml, "a file of your own", is config/config.yaml with
  the README's yaml block of "the parts that carry the question" applied);
- cat/xdg-open of an output: a file under results/ that the pipeline or the analysis writes
  (its name appears in workflow/, the Snakefile or analysis/).

And every config/*.yaml the README names (schemas aside) passes `snakemake -n`.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SNAKEMAKE = ROOT / ".venv" / "bin" / "snakemake"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def code_blocks(lang: str) -> list[str]:
    return [body for kind, body in BLOCK.findall(README.read_text()) if kind == lang]


def readme_commands() -> list[str]:
    """README's shell commands, one string each: continuation lines joined, comments dropped."""
    commands = []
    for body in code_blocks("sh"):
        body = body.replace("\\\n", " ")
        for line in body.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                commands.append(re.sub(r"\s+", " ", line))
    return commands


COMMANDS = readme_commands()


def options(argv: list[str]) -> list[str]:
    return [a.split("=", 1)[0] for a in argv if a.startswith("--")]


def help_text(argv: list[str]) -> str:
    done = subprocess.run(argv + ["--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{' '.join(argv)} --help exited {done.returncode}: {done.stderr[-500:]}"
    return done.stdout + done.stderr


def snakemake_dry_run(configfile: Path) -> None:
    if not SNAKEMAKE.exists():
        pytest.skip(f"{SNAKEMAKE} is absent (make venv)")
    done = subprocess.run([str(SNAKEMAKE), "-n", "--nolock", "--quiet", "rules", "--configfile", str(configfile)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"snakemake -n --configfile {configfile}: exit {done.returncode}\n{done.stderr[-1500:]}"


def test_readme_shows_commands():
    starts = {c.split()[0] for c in COMMANDS}
    assert {"make", "build/bin/run_cipher", ".venv/bin/cbparams"} <= starts, starts


@pytest.mark.parametrize("command", COMMANDS)
def test_command_parses(command, tmp_path):
    argv = shlex.split(command)
    exe = argv[0]
    if exe.startswith("build/bin/"):
        if not (ROOT / exe).exists():
            pytest.skip(f"{exe} is absent: the build is not here (make build)")
        text = help_text([str(ROOT / exe)])
        missing = [o for o in options(argv[1:]) if o not in text]
        assert not missing, f"README: {command}\n{exe} --help lists no {missing}"
    elif exe == ".venv/bin/cbparams":
        if not (ROOT / exe).exists():
            pytest.skip(f"{exe} is absent (make venv)")
        text = help_text([str(ROOT / exe), argv[1]])
        missing = [o for o in options(argv[2:]) if o not in text]
        assert not missing, f"README: {command}\ncbparams {argv[1]} --help lists no {missing}"
    elif exe == ".venv/bin/snakemake":
        if not SNAKEMAKE.exists():
            pytest.skip(f"{SNAKEMAKE} is absent (make venv)")
        text = help_text([str(SNAKEMAKE)])
        missing = [o for o in options(argv[1:]) if o not in text]
        assert not missing, f"README: {command}\nsnakemake --help lists no {missing}"
    elif exe == "make":
        target = argv[1]
        rules = subprocess.run(["make", "-pq", "-f", "Makefile"], cwd=ROOT, capture_output=True, text=True).stdout
        assert re.search(rf"^{re.escape(target)}:", rules, re.M), f"README: {command}: the Makefile has no target {target}"
        config = next((a.split("=", 1)[1] for a in argv[2:] if a.startswith("CONFIG=")), None)
        if config == "config/mine.yaml":
            snakemake_dry_run(own_config(tmp_path))
        elif config:
            assert (ROOT / config).is_file(), f"README: {command}: no {config}"
            snakemake_dry_run(ROOT / config)
    elif exe in ("cat", "xdg-open"):
        path = argv[1]
        assert path.startswith("results/"), f"README: {command}: {path} is not an output under results/"
        stem = Path(path).stem
        writers = [f for f in [ROOT / "Snakefile", *(ROOT / "workflow").rglob("*.smk"), *(ROOT / "workflow").rglob("*.py"),
                               *(ROOT / "analysis").rglob("*.py")] if stem in f.read_text()]
        assert writers, f"README: {command}: neither the pipeline nor the analysis names {stem} (no such output)"
    else:
        pytest.fail(f"README shows `{command}`: this test does not know how to check {exe}; teach it")


def own_config(tmp_path: Path) -> Path:
    """config/mine.yaml as the README builds it: config/config.yaml with its yaml block applied."""
    blocks = code_blocks("yaml")
    assert len(blocks) == 1, f"README has {len(blocks)} yaml blocks; expected the one of 'Asking your own question'"
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    cfg.update(yaml.safe_load(blocks[0]))
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


NAMED_CONFIGS = sorted(set(re.findall(r"config/[\w.-]+\.yaml", README.read_text())) - {"config/mine.yaml"})


@pytest.mark.parametrize("config", NAMED_CONFIGS)
def test_every_config_the_readme_names_dry_runs(config):
    assert (ROOT / config).is_file(), f"README names {config}, which does not exist"
    snakemake_dry_run(ROOT / config)
