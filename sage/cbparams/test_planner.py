"""cbparams.plan: which planner answers. The engine's (run_cipher --plan) is stood in for
by a script in a build directory of its own (CB_BUILD_DIR), since the real one is the
lead's work in progress; the explorer's sizing is checked against the depth profiles."""
import json
import stat

import pytest

from cbparams import planner
from cbparams.errors import ChainError

FAKE = """#!/usr/bin/env bash
# run_cipher stand-in: lists --plan in --help; with --plan writes a plan JSON.
if [ "$1" = --help ]; then echo "  --plan   print the planned chain"; exit 0; fi
out=""; while [ $# -gt 0 ]; do [ "$1" = --json ] && out=$2; shift; done
echo '{"cipher": "aes128", "plan": {"bits": 777, "levels": 40}}' > "$out"
"""


@pytest.fixture
def fake_engine(tmp_path, monkeypatch):
    exe = tmp_path / "bin" / "run_cipher"
    exe.parent.mkdir()
    exe.write_text(FAKE)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("CB_BUILD_DIR", str(tmp_path))
    return exe


def test_engine_planner_when_the_build_has_it(fake_engine):
    assert planner.engine_has_planner()
    p = planner.plan("aes", 4369)
    assert p.source == planner.ENGINE_SOURCE and p.bits == 777 and p.engine["plan"]["levels"] == 40
    assert p.chain.bits == 777 and p.bits_per_round is None
    e = planner.plan("aes", 4369, engine=False)
    assert e.source.startswith("explorer") and e.bits != 777


def test_explorer_when_the_build_lacks_it(tmp_path, monkeypatch):
    monkeypatch.setenv("CB_BUILD_DIR", str(tmp_path))   # nothing built there
    assert not planner.engine_has_planner()
    p = planner.plan("vision8", 4369, rounds=3)
    assert p.source.startswith("explorer") and p.rounds == 3
    assert p.bits == int(p.base_bits + 3 * p.bits_per_round + 0.999) + 60
    assert p.predicted_capacity(3) == pytest.approx(p.bits - p.base_bits - 3 * p.bits_per_round)
    assert json.loads(json.dumps(p.as_dict()))["source"] == p.source


def test_bad_requests():
    with pytest.raises(ChainError, match="rounds=0: plan at least one round"):
        planner.plan("aes", 4369, rounds=0, engine=False)
    with pytest.raises(ChainError, match="cipher='vision128' is unknown"):
        planner.plan("vision128", 4369, engine=False)
