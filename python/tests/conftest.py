"""The policy API (python/faultsweep_policy) is imported from the source tree."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import os
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("FAULTSWEEP_BIN", str(ROOT / "build" / "faultsweep"))


@pytest.fixture
def run_cluster_job(tmp_path):
    """Runs a small cluster job whose strategy is the Python class `cls` in `source`, with the
    given [params] lines besides it; returns the finished process (skips without a binary)."""
    if not os.path.exists(BIN):
        pytest.skip("the faultsweep binary is not built")

    def run(source, cls, params, replicas=1):
        (tmp_path / "policy.py").write_text(source)
        (tmp_path / "job.toml").write_text(f"""
[sweep]
model = "cluster"
seed = 3
replicas = {replicas}
[params]
nodes = 32
workload = {{ source = "lublin", jobs = 60, target_load = 0.6 }}
failures = {{ process = "renewal", dist = "weibull", shape = 0.7, scale = "1d", downtime = "1h" }}
strategy = {{ python = "policy.py", class = "{cls}" }}
{params}
""")
        return subprocess.run([BIN, "run", "job.toml", "--out", "out.h5", "-q"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)

    return run
