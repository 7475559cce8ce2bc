# Spack recipe for faultsweep. Copy this folder into a Spack repository of your own
# (`spack repo create`, then packages/faultsweep/package.py) and point `git` below at the
# repository your site clones faultsweep from; or build a checkout with `spack develop`.
# docs/install.md says how. The CMake configure and install it runs are the ones the project's
# tests run (tests/integration/install.sh); the recipe itself has not been run through Spack.
from spack.package import *


class Faultsweep(CMakePackage):
    """MPI-parallel parameter sweeps and replicated Monte Carlo runs of HPC failure and
    scheduling models, written to one self-describing HDF5 file."""

    # Placeholders: the project has no public address yet. Set both to the repository your site
    # clones faultsweep from (or use `spack develop` on a checkout, which needs neither).
    homepage = "https://example.org/faultsweep"
    git = "https://example.org/faultsweep.git"

    license("MIT")

    version("develop", branch="main")

    variant("python", default=True, description="Install the analysis package faultsweep_analysis")
    variant("slurm", default=True, description="Install the Slurm scripts (share/faultsweep)")

    depends_on("cmake@3.20:", type="build")
    depends_on("mpi")
    depends_on("boost@1.74:+mpi+serialization+math")
    depends_on("hdf5")
    depends_on("eigen@3.3:")
    depends_on("cli11")
    depends_on("toml11")
    depends_on("fmt")
    depends_on("zlib-api")
    depends_on("openssl")
    # pcg-cpp (header-only, <pcg_random.hpp>) must be on the include path; Debian ships it as
    # libpcg-cpp-dev. If your Spack has no package for it, add its include/ folder with
    # CPATH or a Spack external.

    with when("+python"):
        depends_on("python@3.9:", type=("build", "run"))
        depends_on("py-pip", type="build")
        depends_on("py-setuptools@61:", type="build")
        depends_on("py-h5py", type="run")
        depends_on("py-numpy", type="run")
        depends_on("py-pandas", type="run")
        depends_on("py-scipy", type="run")
        depends_on("py-matplotlib", type="run")
        depends_on("py-xarray", type="run")

    def cmake_args(self):
        return [
            self.define("FAULTSWEEP_BUILD_TESTS", False),
            self.define("FAULTSWEEP_BUILD_BENCH", False),
            self.define_from_variant("FAULTSWEEP_INSTALL_SLURM", "slurm"),
        ]

    @run_after("install")
    def install_analysis(self):
        if self.spec.satisfies("+python"):
            pip = which("pip3") or which("pip")
            pip("install", "--no-deps", "--no-build-isolation", f"--prefix={self.prefix}",
                join_path(self.stage.source_path, "analysis"))
