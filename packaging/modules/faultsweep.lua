-- Lmod module file for an installed faultsweep. Copy it to <modulefiles>/faultsweep/0.2.0.lua
-- and set `prefix` to the install prefix (cmake --install build --prefix <prefix>). Load the
-- MPI and HDF5 modules faultsweep was built with before it (or list them in depends_on below).
help([[
faultsweep 0.2.0: MPI-parallel parameter sweeps of HPC failure and scheduling models.
  faultsweep --help                 the command line
  $FAULTSWEEP_SHARE/jobs            bundled jobs (faultsweep run jobs/quickstart.toml works
                                    from any folder)
  $FAULTSWEEP_SHARE/slurm-scripts   Slurm submission scripts
  faultsweep-analysis --help        the Python analysis (if it was installed)
]])
whatis("Name: faultsweep")
whatis("Version: 0.2.0")
whatis("Description: sweeps and Monte Carlo runs of HPC failure and scheduling models (MPI, HDF5)")
whatis("License: MIT")

local prefix = "/opt/faultsweep/0.2.0"  -- set to the install prefix
-- depends_on("openmpi", "hdf5")       -- the site's modules faultsweep was built against

prepend_path("PATH", pathJoin(prefix, "bin"))
prepend_path("CMAKE_PREFIX_PATH", prefix)  -- find_package(faultsweep)
setenv("FAULTSWEEP_ROOT", prefix)
setenv("FAULTSWEEP_SHARE", pathJoin(prefix, "share/faultsweep"))

-- The analysis package, when it was installed into the prefix
-- (pip install --no-build-isolation --prefix <prefix> ./analysis).
local pyver = capture("python3 -c 'import sys; print(\"%d.%d\" % sys.version_info[:2])'"):gsub("%s+", "")
local site = pathJoin(prefix, "lib", "python" .. pyver, "site-packages")
if isDir(site) then
  prepend_path("PYTHONPATH", site)
end
