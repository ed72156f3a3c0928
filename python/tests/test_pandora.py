"""pbgi.pandora.solve: the report of `pbgi pandora`, from a dict or a path; hand-computed values
from the instance descriptions (Theorem 2's case, the tie at the outside option)."""

import json
from decimal import Decimal
import subprocess

import pytest

import pbgi
from conftest import FIXTURES
from test_fixtures import pbgi_binary


def test_dict_and_path_give_the_same_report():
    path = FIXTURES / "pandora" / "two_boxes.json"
    from_path = pbgi.pandora.solve(path)
    from_dict = pbgi.pandora.solve(json.loads(path.read_text()))
    from_path.pop("file")
    from_dict.pop("file")
    assert from_path == from_dict


@pytest.mark.parametrize(
    "name, options, cli",
    [
        ("two_boxes.json", {}, []),
        ("theorem2_tie.json", {"budget": "6/5"}, ["--budget", "6/5"]),
        ("tie_at_outside.json", {"tie": "late"}, ["--tie", "late"]),
        ("mixed_normal.json", {"engine": "fast"}, ["--engine", "fast"]),
    ],
)
def test_report_is_the_cli_report(name, options, cli):
    path = FIXTURES / "pandora" / name
    run = subprocess.run(
        [pbgi_binary(), "pandora", str(path), *cli], capture_output=True, text=True, check=True
    )
    assert pbgi.pandora.solve(str(path), **options) == json.loads(run.stdout)


def test_theorem2_hand_computed_case():
    # fixtures/pandora/theorem2_tie.json: with budget 6/5, λ* = 1/2 and stop-early probability 1/5.
    report = pbgi.pandora.solve(FIXTURES / "pandora" / "theorem2_tie.json", budget="6/5")
    text = json.dumps(report)
    assert '"1/2"' in text and '"1/5"' in text


def test_single_normal_box_objective_is_mean_plus_cost():
    # One box and no outside option: it must be opened, so the objective is E[X] + c (MATH.md,
    # KWW form with one box), here 0 + the double nearest 1/10 (a normal box's cost is rounded
    # to f64, as the report says); its index is PBGI(0, 1, 0.1).
    report = pbgi.pandora.solve({"boxes": [{"cost": 0.1, "normal": {"mean": 0, "sd": 1}}]})
    digits = report["expected_objective"]["value"]
    assert Decimal(digits) == Decimal(format(Decimal(0.1), ".29e"))
    assert report["policy_order"][0]["index"]["decimal"] == pbgi.reference.pbgi(0, 1, 0.1).value


def test_invalid_instance_names_box_and_field():
    with pytest.raises(ValueError, match=r'box 0: field "cost": must be > 0'):
        pbgi.pandora.solve({"boxes": [{"cost": -1, "values": [0, 1], "probs": ["1/2", "1/2"]}]})


def test_unreadable_path_is_named():
    with pytest.raises(ValueError, match=r"no-such-file.json: cannot read"):
        pbgi.pandora.solve("no-such-file.json")


def test_files_are_read_up_to_the_cli_limit_only(tmp_path):
    # Reported: solve('/dev/zero') read until MemoryError, while the CLI refuses files over
    # 16 MiB. The same limit, read no further; the CLI gives the same verdict on the same file.
    import os

    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.write(b" " * (16 << 20) + b"{}")
    with pytest.raises(ValueError, match=r"big.json: larger than 16 MiB"):
        pbgi.pandora.solve(big)
    run = subprocess.run([pbgi_binary(), "pandora", str(big)], capture_output=True, text=True)
    assert run.returncode == 2 and "16 MiB" in run.stderr
    if os.path.exists("/dev/zero"):
        with pytest.raises(ValueError, match=r"/dev/zero: larger than 16 MiB"):
            pbgi.pandora.solve("/dev/zero")
    binary = tmp_path / "latin1.json"
    binary.write_bytes(b'{"boxes": [], "note": "\xe9"}')
    with pytest.raises(ValueError, match=r"latin1.json: not UTF-8 text"):
        pbgi.pandora.solve(binary)


def test_counterexample_k_and_n_are_exact():
    report = pbgi.pandora.counterexample("1/100", "1/2")
    assert report["cheap_boxes_K"] == "150" and report["opened_by_ei_per_cost_N"] == "150"


def test_exact_dp_is_bounded_by_its_state_limit_not_by_a_box_count():
    # 13 identical boxes with values {0, 1}: 2^13 × 3 states, far below the default 2^20, so
    # the DP runs; Weitzman's policy is optimal (Weitzman 1979), so it attains the optimum.
    box = {"cost": "1/10", "values": [0, 1], "probs": ["1/2", "1/2"]}
    report = pbgi.pandora.solve({"boxes": [box] * 13})
    assert report["dp"]["policy_attains_optimum"] is True
    # 19 such boxes: 2^19 × 3 states, above 2^20: not run, and the report names the limit.
    report = pbgi.pandora.solve({"boxes": [box] * 19})
    assert "optimum" not in report["dp"]
    assert "above the limit of 1048576" in report["dp"]["skipped"]
    assert "--max-states" in report["dp"]["skipped"]


def test_work_limits_are_solve_arguments_named_as_such():
    # With normal boxes the quadrature's work is estimated first (20 boxes: above the default);
    # the message names solve's own arguments, and raising max_work is what lets it run.
    boxes = [{"cost": 0.1 + 0.001 * i, "normal": {"mean": 0.01 * i, "sd": 1 + 0.001 * i}} for i in range(20)]
    with pytest.raises(ValueError, match=r"normal-box quadrature needs about .* raise it with max_work 1e12, or use engine=\"fast\""):
        pbgi.pandora.solve({"boxes": boxes})
    one = {"boxes": boxes[:1]}
    with pytest.raises(ValueError, match=r"normal-box quadrature .* above the limit of 1\.0e0"):
        pbgi.pandora.solve(one, max_work=1)
    assert pbgi.pandora.solve(one, max_work=1e9)["engine"] == "reference"
    for bad in [0, -1.0, float("inf"), float("nan")]:
        with pytest.raises(ValueError, match=r"max_work: a positive finite number"):
            pbgi.pandora.solve(one, max_work=bad)
    with pytest.raises(ValueError, match=r"max_states"):
        pbgi.pandora.solve(one, max_states=2**26 + 1)
    with pytest.raises(TypeError, match=r"max_work"):
        pbgi.pandora.solve(one, max_work="1e9")
