# libFuzzer targets of the input readers (SWF, sacct, Batsim JSON and the five failure-log
# formats, the PNNL reader with a user's node_pattern) and of `faultsweep fit`'s CSV path.
# Included by fuzz/CMakeLists.txt (`include(readers.cmake OPTIONAL)`); each target links the
# library, which FAULTSWEEP_FUZZ builds with coverage and the sanitizers, so the fuzzers see
# inside the readers.
#   bash scripts/sanitize.sh build        (the sanitizer tree, build-asan/, with every target)
#   build-asan/fuzz/fuzz_swf -max_total_time=600 CORPUS_DIR
faultsweep_fuzz_target(fuzz_swf ${CMAKE_CURRENT_LIST_DIR}/fuzz_swf.cpp)
faultsweep_fuzz_target(fuzz_sacct ${CMAKE_CURRENT_LIST_DIR}/fuzz_sacct.cpp)
faultsweep_fuzz_target(fuzz_batsim ${CMAKE_CURRENT_LIST_DIR}/fuzz_batsim.cpp)
faultsweep_fuzz_target(fuzz_pnnl_pattern ${CMAKE_CURRENT_LIST_DIR}/fuzz_pnnl_pattern.cpp)
faultsweep_fuzz_target(fuzz_fit_csv ${CMAKE_CURRENT_LIST_DIR}/fuzz_fit_csv.cpp)
foreach(format lanl csv fta pnnl slurm)
  string(TOUPPER ${format} _fs_upper)
  faultsweep_fuzz_target(fuzz_trace_${format} ${CMAKE_CURRENT_LIST_DIR}/fuzz_traces.cpp)
  target_compile_definitions(fuzz_trace_${format} PRIVATE FAULTSWEEP_FUZZ_TRACE_${_fs_upper}=1)
endforeach()
