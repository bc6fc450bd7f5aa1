"""The cipher catalog, asked of the engine.

The ciphers are entries of the C++ catalog (runners/ciphers/catalog/): each declares its
instances (field degree n, state size s, rounds), packings, step names, description and
citation. `run_cipher --list-ciphers --json F` writes it; this module reads it once per
process and answers every question the explorer, the pipeline and the analysis have about
ciphers, so no Python file keeps a list of them.

An *instance* is named by its id (aes, vision8, mimc63, ...). A pipeline experiment
names its cipher (`cipher: vision`) and, for ciphers with several instances, picks one by
`field_bits` (n) and/or `state_size` (s); with neither, the cipher's first instance (the
rule run_cipher applies to --field-bits and --state-size).

Prime-field instances (F_p, p > 2: mimcp17, mimcp33) are in the catalog with their `p`
(the one source of it: run_cipher --list-ciphers): the explorer sweeps their rings at that p
(odd m coprime to p and m = 2^k), the engine plans them at p, and a pipeline experiment
picks one by `p` as a GF(2^n) one by `field_bits` (`instance_of({"cipher": "mimc", "p":
65537})`); run_cipher takes them with --p (`flags`). `instances(prime=False)` leaves them
out, for the questions only GF(2^n) instances answer.

Every instance is found again from its cipher and field (tests/test_catalog_names.py has
the concrete ones):

>>> all(instance_of(i.fields) == i.id for i in instances().values())
True
>>> all(flags(i.id)[:2] == ["--cipher", i.cipher] for i in instances().values())
True
"""
from __future__ import annotations

import json
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import runner
from .errors import ParamError


class CatalogError(ParamError):
    """A cipher or instance the catalog does not have (the message lists what it has)."""


@dataclass(frozen=True)
class Instance:
    """One instance of a catalog cipher (the fields of run_cipher --list-ciphers)."""

    id: str              #: the explorer's and the pipeline's name (aes, vision8, ...)
    cipher: str          #: run_cipher --cipher
    n: int               #: field degree: the ring needs n | d = ord_m(2)
    s: int               #: field elements per block (slots one block takes, packed)
    rounds: int          #: the cipher's full round count
    label: str           #: "GF(2^8)^16"
    display: str         #: "AES-128", "Vision GF(2^8)^16": what tables call it
    packings: tuple      #: ("packed", <the sliced packing's name>[, "bit-sliced"]): those it offers
    steps: dict          #: {"separate": [...], "fused": [...][, "bit-sliced": [...]]}: per-round step names
    decrypt: bool        #: whether --decrypt is offered
    field_polynomial: str
    block_bits: int
    key_bytes: int
    p: int = 2           #: the characteristic: 2 for GF(2^n), else the prime of F_p (n = 1)

    @property
    def state(self) -> int:
        """Alias of s (the explorer's historical name)."""
        return self.s

    @property
    def fields(self) -> dict:
        """The pipeline's experiment fields that select this instance (config schema): p too
        for an F_p instance."""
        return {"cipher": self.cipher, "field_bits": self.n, "state_size": self.s, "packing": "packed",
                **({"p": self.p} if self.p != 2 else {})}


@lru_cache(maxsize=None)
def _load(path: str, mtime: float) -> dict:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "catalog.json"
        p = subprocess.run([path, "--list-ciphers", "--json", str(out)], capture_output=True, text=True, timeout=120)
        if p.returncode != 0 or not out.exists():
            raise runner.RunError(f"{path} --list-ciphers failed: {p.stderr.strip()}")
        return json.loads(out.read_text())


_AT: list = []  # a run_cipher chosen by use_run_cipher (the pipeline's build_dir)


def use_run_cipher(path: str | Path) -> None:
    """Ask this run_cipher from now on (the pipeline's <build_dir>/bin/run_cipher)."""
    _AT[:] = [Path(path)]


def catalog() -> dict:
    """The catalog as run_cipher writes it ({"ciphers": [...]}); RunError when the engine is
    not built (`make build`)."""
    p = _AT[0] if _AT else runner.find_executable("run_cipher")
    if not p.exists():
        raise runner.RunError(f"{p} is not built: run `make build` (the cipher catalog is the engine's)")
    return _load(str(p), p.stat().st_mtime)


def ciphers() -> dict:
    """{cipher name: its catalog record}, in the catalog's order: the block ciphers (the
    keystream generators, kind "keystream", are planned by run_cipher alone for now)."""
    return {c["name"]: c for c in catalog()["ciphers"] if c.get("kind", "block") == "block"}


def instances(prime: bool = True) -> dict:
    """{instance id: Instance}, in the catalog's order: every instance, F_p ones (p > 2)
    included; prime=False: the GF(2^n) instances only.

    >>> all(i.p == 2 for i in instances(prime=False).values())
    True
    >>> sorted({i.p for i in instances().values()})[:2]
    [2, 65537]
    """
    out = {}
    for c in ciphers().values():
        for i in c["instances"]:
            if i.get("p", 2) != 2 and not prime:
                continue
            out[i["id"]] = Instance(id=i["id"], cipher=c["name"], n=i["n"], s=i["s"], rounds=i["rounds"],
                                    label=i["label"], display=i["display"], packings=tuple(c["packings"]),
                                    steps=i["steps"], decrypt=i["decrypt"], field_polynomial=i["field_polynomial"],
                                    block_bits=i["block_bits"], key_bytes=i["key_bytes"], p=i.get("p", 2))
    return out


def instance(name: str) -> str:
    """The instance id for an id or a cipher name (the cipher's first instance); CatalogError
    listing both otherwise.

    >>> instance("mimcp17"), instance("mimc")
    ('mimcp17', 'mimc63')
    """
    insts = instances()
    if name in insts:
        return name
    cs = ciphers()
    if name in cs:
        return cs[name]["instances"][0]["id"]
    raise CatalogError(f"cipher={name!r} is not in the catalog: instances {sorted(insts)}, ciphers {sorted(cs)}")


def instance_of(experiment: dict) -> str:
    """The instance id of a pipeline experiment (cipher, optional p, field_bits, state_size):
    without p a GF(2^n) instance, with p > 2 one over F_p at that p.

    >>> instance_of({"cipher": "mimc", "p": 65537})
    'mimcp17'
    >>> instance_of({"cipher": "mimc", "p": 7})
    Traceback (most recent call last):
    ...
    cbparams.catalog.CatalogError: cipher=mimc has no instance with p=7: it has GF(2^63)^1 (p=2), GF(2^31)^1 (p=2), F_65537^1 (p=65537), F_8088322049^1 (p=8088322049)
    """
    name = experiment.get("cipher")
    cs = ciphers()
    if name not in cs:
        raise CatalogError(f"cipher={name!r} is not in the catalog: use one of {', '.join(cs)} "
                           "(build/bin/run_cipher --list-ciphers)")
    n, s, p = experiment.get("field_bits"), experiment.get("state_size"), experiment.get("p", 2)
    cands = [i for i in cs[name]["instances"] if i.get("p", 2) == p]
    if not cands:
        have = ", ".join(f"{i['label']} (p={i.get('p', 2)})" for i in cs[name]["instances"])
        raise CatalogError(f"cipher={name} has no instance with p={p}: it has {have}")
    if n is None and s is None:
        return cands[0]["id"]
    for i in cands:
        if (n is None or i["n"] == n) and (s is None or i["s"] == s):
            return i["id"]
    asked = " and ".join(f"{k}={v}" for k, v in (("field_bits", n), ("state_size", s)) if v is not None)
    raise CatalogError(f"cipher={name} has no instance with {asked}{f' at p={p}' if p != 2 else ''}: it has "
                       f"{', '.join(i['label'] for i in cands)}")


def display(experiment: dict) -> str:
    """'AES-128', 'Vision GF(2^16)^8', 'MiMC GF(2^63)': the instance as tables name it."""
    return instances()[instance_of(experiment)].display


def flags(instance_id: str) -> list:
    """run_cipher's flags selecting the instance (--field-bits and --state-size only for a
    cipher with several instances; --p and --state-size for an F_p one).

    >>> flags("mimcp17")
    ['--cipher', 'mimc', '--p', 65537, '--state-size', 1]
    """
    i = instances()[instance(instance_id)]
    if i.p != 2:  # F_p: the prime names the field (n = 1)
        return ["--cipher", i.cipher, "--p", i.p, "--state-size", i.s]
    if len(ciphers()[i.cipher]["instances"]) == 1:
        return ["--cipher", i.cipher]
    return ["--cipher", i.cipher, "--field-bits", i.n, "--state-size", i.s]


def step_names(instance_id: str, linear: str = "separate") -> list[str]:
    """The step names a run of the instance reports per round (per_round[].ops keys);
    linear: separate, fused, or bit-sliced (the steps of a bit-sliced run)."""
    return list(instances()[instance(instance_id)].steps[linear])


def all_step_names() -> list[str]:
    """Every step name of every instance, fused and apart (and bit-sliced where offered), in
    catalog order."""
    out = []
    for i in instances().values():
        for names in i.steps.values():
            for s in names:
                if s not in out:
                    out.append(s)
    return out


def packing_names(cipher: str) -> tuple:
    """The packings a cipher accepts, its own names ("packed", "byte-sliced" for AES)."""
    cs = ciphers()
    if cipher not in cs:
        raise CatalogError(f"cipher={cipher!r} is not in the catalog: use one of {', '.join(cs)}")
    return tuple(cs[cipher]["packings"])


def field_degrees() -> list[int]:
    """The distinct field degrees n of the catalog's GF(2^n) instances, increasing."""
    return sorted({i.n for i in instances(prime=False).values()})
