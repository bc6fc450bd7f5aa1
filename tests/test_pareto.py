"""The Pareto figure's security axis: the lowest figure each planned ring has, the lattice
estimator's included where it ran (the selection checks the target with the same ones)."""


import pandas as pd

from analysis import pareto


def test_security_is_the_lowest_figure_a_row_has():
    df = pd.DataFrame({"helib_bits": [133.2, 140.0, 90.0], "coresvp_bits": [129.6, 150.0, 95.0],
                       "est_best": [145.2, 120.5, ""]})  # the estimator did not run on the third ring
    assert list(pareto.security_bits(df)) == [129.6, 120.5, 90.0]


def test_security_without_estimator_columns():
    df = pd.DataFrame({"helib_bits": [133.2], "coresvp_bits": [129.6]})
    assert list(pareto.security_bits(df)) == [129.6]
