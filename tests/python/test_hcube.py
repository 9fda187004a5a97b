"""The Python module hcube against the tool: the same cases give the same cycles, bounds and
memory digests as `hcube run --json`, schedules come as lists or numpy arrays, and the library's
errors arrive as hcube.Error with the tool's messages."""
import json
import os
import subprocess

import numpy as np
import pytest

import hcube

TOOL = os.environ.get("HCUBE_TOOL", "hcube")

# A user's own AAPC on a 3-cube (examples/own_schedule): 12 sends on 3 ports in K/2 = 4 steps.
OWN = [[1, 2, 4], [7, 6, 5], [3, 7, 6], [5, 3, 7]]


def tool_json(*args):
    out = subprocess.run([TOOL, "run", *args, "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def test_own_relative_schedule_meets_the_bound():
    r = hcube.run(hcube.Schedule.relative(n=3, steps=OWN), hcube.Permutation.aapc(n=3))
    assert (r.cycles, r.transfer_cycles, r.lower_bound) == (4, 4, 4)
    assert (r.mismatches, r.elements, r.errors, r.passed) == (0, 64, [], True)
    assert r.link_words.shape == (8, 3)
    assert r.link_words.dtype == np.uint64
    assert (r.link_words == 4).all()


def test_numpy_steps_are_the_same_schedule():
    perm = hcube.Permutation.aapc(n=3)
    a = hcube.run(hcube.Schedule.relative(n=3, steps=OWN), perm)
    b = hcube.run(hcube.Schedule.relative(n=3, steps=np.array(OWN, dtype=np.int32)), perm)
    assert (a.cycles, a.memory_digest) == (b.cycles, b.memory_digest)


def test_own_schedule_as_a_file_runs_the_same_in_the_tool(tmp_path):
    perm = hcube.Permutation.aapc(n=3)
    s = hcube.Schedule.relative(n=3, steps=OWN, name="own-aapc")
    path = str(tmp_path / "own.hcs")
    s.save(path, perm)
    r = hcube.run(s, perm)
    t = tool_json("--schedule", path)
    assert (r.cycles, r.transfer_cycles, r.lower_bound, r.memory_digest) == (
        t["cycles"], t["transfer_cycles"], t["lower_bound"], t["memory_digest"])
    back = hcube.Schedule.load(path)
    assert (back.form, back.n, len(back), back.file_permutation) == ("relative", 3, 4,
                                                                     "aapc n=3 m=1")


@pytest.mark.parametrize("algo,n,k,width", [("edelman", 3, 0, 1), ("edelman", 4, 32, 1),
                                            ("jh4", 3, 16, 2), ("exchange", 3, 0, 1)])
def test_catalogue_cases_equal_the_tool(algo, n, k, width):
    r = hcube.run_catalogue(algo, n=n, k=k, width=width)
    args = ["--algo", algo, "--n", str(n), "--width", str(width)] + (["--k", str(k)] if k else [])
    t = tool_json(*args)
    assert (r.cycles, r.transfer_cycles, r.lower_bound, r.span, r.words, r.memory_digest) == (
        t["cycles"], t["transfer_cycles"], t["lower_bound"], t["span"], t["words"],
        t["memory_digest"])
    assert json.loads(r.json)["cycles"] == t["cycles"]


def test_start_ups_make_every_step_a_block():
    perm = hcube.Permutation.aapc(n=3)
    r = hcube.run(hcube.Schedule.relative(n=3, steps=OWN), perm, tau=10)
    assert r.cycles == 4 * (1 + 10)
    assert r.transfer_cycles == 4


def test_move_schedule_of_a_1_cube():
    # AAPC on a 1-cube: node 0's slot 1 and node 1's slot 0 swap across dimension 0.
    perm = hcube.Permutation.aapc(n=1)
    s = hcube.Schedule.moves(n=1, steps=[[(0, 1, 0, 0), hcube.Move(1, 0, 0, 1)]])
    r = hcube.run(s, perm)
    assert (r.cycles, r.lower_bound, r.mismatches) == (1, 1, 0)
    m = hcube.Schedule.moves(n=1, steps=[np.array([[0, 1, 0, 0], [1, 0, 0, 1]])])
    assert hcube.run(m, perm).memory_digest == r.memory_digest


def test_tlm_agrees_with_the_table_executor():
    perm = hcube.Permutation.aapc(n=3)
    s = hcube.Schedule.relative(n=3, steps=OWN)
    a = hcube.run(s, perm)
    b = hcube.run(s, perm, backend="tlm")
    assert (a.cycles, a.memory_digest) == (b.cycles, b.memory_digest)
    assert (a.link_words == b.link_words).all()


def test_errors_are_hcube_errors_with_the_library_messages():
    perm = hcube.Permutation.aapc(n=3)
    with pytest.raises(hcube.Error, match="backend 'fpga': must be table, tlm or rtl"):
        hcube.run(hcube.Schedule.relative(n=3, steps=OWN), perm, backend="fpga")
    with pytest.raises(hcube.Error, match="step 1: has 2 entries, not 3"):
        hcube.Schedule.relative(n=3, steps=[[1, 2, 4], [3, 6]])
    with pytest.raises(hcube.Error, match="is for n = 2"):
        hcube.run(hcube.Schedule.relative(n=2, steps=[[1, 2], [3, 3]]), perm)
    # A schedule that loses elements fails verification, naming what is wrong.
    with pytest.raises(hcube.Error, match="static verification"):
        hcube.run(hcube.Schedule.relative(n=3, steps=OWN[:3]), perm)
    assert not hcube.verify(hcube.Schedule.relative(n=3, steps=OWN[:3]), perm).ok
    assert isinstance(hcube.Error("x"), RuntimeError)


def test_permutations_and_catalogue():
    assert str(hcube.Permutation.aapc(n=6)) == "aapc n=6 m=1"
    assert hcube.Permutation.aapc(n=6).slots == 64
    assert hcube.Permutation.parse("dim n=2 k=2 delta=2,3,0,1").slots == 4
    names = [a[0] for a in hcube.catalogue()]
    assert "edelman" in names and "jh4" in names
