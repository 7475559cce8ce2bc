"""The example policies (examples/policies/) import with the API module and run on a tiny job."""

import importlib.util
import os
import pathlib
import subprocess

import h5py
import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "policies"
BIN = os.environ.get("FAULTSWEEP_BIN", str(ROOT / "build" / "faultsweep"))

# file, class, job-file key
POLICIES = [
    ("first_fit.py", "FirstFit", "allocator"),
    ("round_robin.py", "RoundRobin", "allocator"),
    ("cool_nodes.py", "CoolNodes", "allocator"),
    ("easy.py", "Easy", "queue"),
    ("free_size.py", "FreeSize", "moldable_size"),
    ("preventive_migrate.py", "PreventiveMigrate", "strategy"),
    ("bucket_checkpoint.py", "BucketAll", "strategy"),
]
# What a policy needs in the tiny job besides its own table.
NEEDS = {"bucket_checkpoint.py": 'predictor = { precision = 0.9, recall = 0.9 }\ncheckpoint_cost = "5min"'}


def load(name):
    spec = importlib.util.spec_from_file_location(name[:-3], EXAMPLES / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name,cls,kind", POLICIES)
def test_example_imports_and_derives_from_the_api(name, cls, kind):
    import faultsweep_policy as fp

    c = getattr(load(name), cls)
    base = {"allocator": fp.Allocator, "queue": fp.QueuePolicy,
            "moldable_size": fp.SizeChooser, "strategy": fp.Strategy}[kind]
    assert issubclass(c, base)
    instance = c({}, np.random.default_rng(1))
    assert isinstance(instance.params, dict)


def test_first_fit_picks_the_lowest_free_ids():
    class View:
        free = np.array([False, True, False, True, True])

    ff = load("first_fit.py").FirstFit({}, np.random.default_rng(1))
    assert list(ff.allocate(View(), 2)) == [1, 3]


def tiny_job(tmp_path, key, name, cls):
    (tmp_path / "job.toml").write_text(f"""
[sweep]
model = "cluster"
seed = 3
replicas = 2
[params]
nodes = 16
workload = {{ source = "lublin", jobs = 40, target_load = 0.6, moldable = 0.5 }}
failures = {{ process = "renewal", dist = "exponential", mean = "2d", downtime = "1h" }}
{key} = {{ python = "{EXAMPLES / name}", class = "{cls}" }}
{NEEDS.get(name, "")}
""")
    return tmp_path / "job.toml"


@pytest.mark.skipif(not os.path.exists(BIN), reason="the faultsweep binary is not built")
@pytest.mark.parametrize("name,cls,kind", POLICIES)
def test_example_runs_on_a_tiny_job(tmp_path, name, cls, kind):
    job = tiny_job(tmp_path, kind, name, cls)
    out = tmp_path / "out.h5"
    r = subprocess.run([BIN, "run", str(job), "--out", str(out), "-q"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with h5py.File(out, "r") as f:
        assert f.attrs["complete"]
        text = f.attrs["job_file"]
        assert "# faultsweep: policy source " in text and f"{name} sha256 " in text
        assert (f["results/jobs"][...] == 40).all()


@pytest.mark.skipif(not os.path.exists(BIN), reason="the faultsweep binary is not built")
def test_the_documented_example_runs(tmp_path):
    """docs/python-policies.md's complete example, as printed there (with fewer jobs)."""
    import re

    doc = (ROOT / "docs" / "python-policies.md").read_text()
    code, job = re.findall(r"```(?:python|toml)\n(.*?)```", doc, re.S)[:2]
    assert len(code.splitlines()) + len(job.splitlines()) < 40
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "spread.py").write_text(code)
    (tmp_path / "spread.toml").write_text(job.replace("jobs = 2000", "jobs = 100")
                                          .replace("replicas = 10", "replicas = 2"))
    r = subprocess.run([BIN, "run", "spread.toml", "-q"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with h5py.File(tmp_path / "spread.h5", "r") as f:
        assert (f["results/jobs"][...] == 100).all()


def test_preventive_migrate_moves_the_riskiest_process_to_the_safest_idle_node():
    class Job:
        running = True
        nodes = np.array([0, 1], dtype=np.int32)

    class View:
        now = 600.0
        running = np.array([0], dtype=np.int32)
        free = np.array([False, False, True, True])
        times = {0: np.array([10.0, 30.0]), 1: np.array([]), 2: np.array([20.0]),
                 3: np.array([])}

        def job(self, j):
            return Job()

        def failure_times(self, n):
            return self.times[n]

    s = load("preventive_migrate.py").PreventiveMigrate({}, np.random.default_rng(1))
    moves = s.on_tick(View())
    assert [(m.job, m.from_node, m.to_node, m.overhead) for m in moves] == [(0, 0, 3, 300.0)]
    assert s.report() == {"preventive_moves": 1}
