"""Kiviat area, scaling and FARS composite gains (faultsweep_analysis.kiviat) on hand-worked
cases."""
import math

import numpy as np
import pytest

from faultsweep_analysis import kiviat as kv


def test_area_of_the_unit_hexagon_is_three_halves_root_three():
    assert kv.kiviat_area(np.ones(6)) == pytest.approx(1.5 * math.sqrt(3))


def test_area_scales_with_the_square_of_a_common_factor_and_ignores_rotation():
    r = np.array([0.2, 0.9, 0.4, 1.0, 0.3, 0.6])
    assert kv.kiviat_area(0.5 * r) == pytest.approx(0.25 * kv.kiviat_area(r))
    assert kv.kiviat_area(np.roll(r, 2)) == pytest.approx(kv.kiviat_area(r))
    # A hand-worked one: consecutive products 0.18+0.36+0.4+0.3+0.18+0.12 = 1.54.
    assert kv.kiviat_area(r) == pytest.approx(0.5 * math.sin(math.pi / 3) * 1.54)


def test_axis_values_are_nonutilization_mtbc_and_the_four_losses():
    v = kv.axis_values({"utilization": 0.7, "throughput_per_h": 4.0, "mean_response_s": 100.0,
                        "sul_node_hours": 5.0, "jfr": 0.1, "fsd": 0.2})
    assert v == pytest.approx([0.3, 0.25, 100.0, 5.0, 0.1, 0.2])
    with pytest.raises(KeyError, match="fsd"):
        kv.axis_values({"utilization": 0.7})


def test_each_axis_is_scaled_by_the_largest_method_and_an_all_zero_axis_stays_zero():
    v = np.array([[2.0, 1.0, 0.0, 4, 4, 4], [1.0, 4.0, 0.0, 2, 2, 2]])
    s = kv.scale_axes(v)
    assert s[0] == pytest.approx([1, 0.25, 0, 1, 1, 1])
    assert s[1] == pytest.approx([0.5, 1, 0, 0.5, 0.5, 0.5])
    with pytest.raises(ValueError):
        kv.scale_axes(-v)


def test_gain_of_a_method_half_as_bad_on_every_axis_is_three_quarters():
    # B = A / 2 on every axis: K(B) = K(A) / 4, gain (K(A) - K(B)) / K(A) = 0.75.
    a = np.array([0.3, 0.5, 1000.0, 20.0, 0.2, 0.4])
    values = np.stack([a, a / 2])[:, None, :]  # [2 methods, 1 replica, 6]
    assert kv.replica_gains(values)[1, 0] == pytest.approx(0.75)
    assert kv.gain_of_means(values)[1] == pytest.approx(0.75)
    assert kv.replica_gains(values)[0, 0] == 0.0


def test_paired_gain_uses_each_replica_and_gives_a_t_interval():
    # Replica r: B = c_r * A with c = 0.5, 0.6, 0.7 -> gains 0.75, 0.64, 0.51.
    a = np.array([0.3, 0.5, 1000.0, 20.0, 0.2, 0.4])
    c = np.array([0.5, 0.6, 0.7])
    values = np.stack([np.tile(a, (3, 1)), c[:, None] * a])
    est = kv.paired_gain(values)[1]
    g = 1 - c**2
    assert est.mean == pytest.approx(g.mean())
    half = 4.302652729911275 * g.std(ddof=1) / math.sqrt(3)  # t(0.975, 2)
    assert (est.lo, est.hi) == pytest.approx((g.mean() - half, g.mean() + half))
    assert est.n == 3


def test_a_replica_missing_for_one_method_is_left_out():
    a = np.array([0.3, 0.5, 1000.0, 20.0, 0.2, 0.4])
    values = np.stack([np.tile(a, (2, 1)), np.stack([a / 2, a * np.nan])])
    g = kv.replica_gains(values)
    assert g[1, 0] == pytest.approx(0.75) and math.isnan(g[1, 1])
    assert kv.paired_gain(values)[1].n == 1


def test_metric_gains_are_relative_reductions_per_axis():
    a = np.array([0.5, 0.5, 1000.0, 20.0, 0.2, 0.4])
    b = np.array([0.5, 0.5, 900.0, 10.0, 0.1, 0.4])
    g = kv.metric_gains(np.stack([a, b])[:, None, :])[1]
    assert [e.mean for e in g] == pytest.approx([0, 0, 0.1, 0.5, 0.5, 0])


def test_the_three_ci_helpers_agree_with_scipy_t_interval():
    """kiviat.estimate, zhang_data.estimate and gottumukkala_alloc.paired_ci share mean_ci95:
    the same numbers as scipy.stats.t.interval, and each keeps its own rule for n < 2."""
    from scipy import stats as st

    from reproduce import gottumukkala_alloc, zhang_data

    x = np.array([1.0, 2.5, 2.0, 4.0, np.nan])
    lo, hi = st.t.interval(0.95, 3, loc=2.375, scale=st.sem(x[:4]))
    for e in (kv.estimate(x), zhang_data.estimate(x)):
        assert (e.mean, e.n) == (2.375, 4)
        assert e.lo == pytest.approx(lo, rel=1e-14) and e.hi == pytest.approx(hi, rel=1e-14)
    mean, half, n = gottumukkala_alloc.paired_ci(x)
    assert (mean, n) == (2.375, 4) and half == pytest.approx(hi - mean, rel=1e-13)
    one = np.array([3.0, np.nan])
    assert math.isnan(kv.estimate(one).lo) and zhang_data.estimate(one).lo == 3.0
    assert math.isnan(gottumukkala_alloc.paired_ci(one)[1])
