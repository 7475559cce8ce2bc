# Unit tests of the workload area (explicit list).
list(APPEND FAULTSWEEP_UNIT_TESTS unit/test_swf.cpp unit/test_swf_robust.cpp
     unit/test_generators.cpp unit/test_batsim.cpp)
# Zhang sensitivity study: slowdown floor, long_jobs, size_scale.
list(APPEND FAULTSWEEP_UNIT_TESTS unit/test_zhang_sensitivity.cpp)
# Slurm accounting as a workload (sacct --parsable2) and Slurm's text forms.
list(APPEND FAULTSWEEP_UNIT_TESTS unit/test_sacct.cpp unit/test_slurm_text.cpp)
