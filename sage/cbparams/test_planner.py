"""cbparams.planner: the explorer's chains are the engine planner's (run_cipher --plan)."""
import pytest

from cbparams import planner, runner
from cbparams.errors import ChainError

needs_engine = pytest.mark.skipif(not (runner.build_dir() / "bin" / "run_cipher").exists(),
                                  reason="engine not built (make build)")


def test_instances_and_arguments():
    assert planner.instance("aes128") == "aes" and planner.instance("vision") == "vision8"
    assert planner.plan_args("aes", 257, rounds=2) == ["--cipher", "aes128", "--m", 257, "--hwt", 120, "--seed", 1,
                                                       "--c", 3, "--rounds", 2]
    assert planner.plan_args("aes", 257, target=127.5)[-2:] == ["--security-target", 127.5]


def test_bad_requests():
    with pytest.raises(ChainError, match="rounds=0: plan at least one round"):
        planner.plan_args("aes", 4369, rounds=0)
    with pytest.raises(ChainError, match="cipher='vision128' is not in the catalog"):
        planner.plan("vision128", 4369)


@needs_engine
def test_plan_is_the_engines():
    """The plan's chain, and with a target the engine's choice of c (HElib's formula)."""
    doc = planner.plan("aes", 257, rounds=2)
    assert doc["rounds"] == 2 and doc["plan"]["bits"] > 100 and doc["params"]["c"] == 3
    assert doc["plan"]["op_counts_bits"] == doc["plan"]["bits"]
    t = planner.plan("aes", 4369, target=20)
    assert t["params"]["security"] >= 20 and "fewest digits" in t["plan"]["choice"]
    with pytest.raises(runner.RunError, match="--security-target 200"):
        planner.plan("aes", 257, target=200)
