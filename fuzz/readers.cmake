# libFuzzer targets of the input readers (SWF, sacct and the four failure-log formats, the PNNL reader
# with a user's node_pattern) and of `faultsweep fit`'s CSV path. Included by
# fuzz/CMakeLists.txt (`include(readers.cmake OPTIONAL)`); self-contained: the reader sources are
# compiled again, with coverage and sanitizers, into a small library of their own, so the fuzzers
# see inside the readers even when faultsweep_core itself is built without instrumentation.
#   bash scripts/sanitize.sh build        (the sanitizer tree, build-asan/, with every target)
#   build-asan/fuzz/fuzz_swf -max_total_time=600 CORPUS_DIR
if(TARGET faultsweep_core AND CMAKE_CXX_COMPILER_ID MATCHES "Clang"
   AND NOT TARGET faultsweep_fuzz_readers)
  set(_fs_root ${CMAKE_CURRENT_LIST_DIR}/..)
  set(_fs_sanitize -fsanitize=address,undefined -fno-sanitize-recover=undefined
                   -fno-omit-frame-pointer)
  add_library(faultsweep_fuzz_readers STATIC
    ${_fs_root}/src/core/error.cpp
    ${_fs_root}/src/core/compressed.cpp
    ${_fs_root}/src/workload/swf.cpp
    ${_fs_root}/src/core/slurm_text.cpp
    ${_fs_root}/src/workload/sacct.cpp
    ${_fs_root}/src/workload/sacct_stats.cpp
    ${_fs_root}/src/failures/trace_text.cpp
    ${_fs_root}/src/failures/trace.cpp
    ${_fs_root}/src/failures/lanl.cpp
    ${_fs_root}/src/failures/fta.cpp
    ${_fs_root}/src/failures/pnnl.cpp)
  target_include_directories(faultsweep_fuzz_readers PUBLIC ${_fs_root}/include)
  target_link_libraries(faultsweep_fuzz_readers PUBLIC fmt::fmt ZLIB::ZLIB LibLZMA::LibLZMA PkgConfig::RE2)
  target_compile_options(faultsweep_fuzz_readers PUBLIC -fsanitize=fuzzer-no-link ${_fs_sanitize})

  function(faultsweep_reader_fuzzer name source)
    add_executable(${name} ${CMAKE_CURRENT_LIST_DIR}/${source})
    target_link_libraries(${name} PRIVATE faultsweep_fuzz_readers)
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer ${_fs_sanitize})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer ${_fs_sanitize})
    target_compile_definitions(${name} PRIVATE ${ARGN})
  endfunction()

  # `fit`'s analysis (reliability/) and what it needs (distributions, streams, tables), on top
  # of the readers.
  file(GLOB _fs_dist ${_fs_root}/src/dist/*.cpp)
  add_library(faultsweep_fuzz_fit STATIC ${_fs_dist}
    ${_fs_root}/src/core/rng.cpp
    ${_fs_root}/src/core/hash.cpp
    ${_fs_root}/src/core/params.cpp
    ${_fs_root}/src/core/table_reader.cpp
    ${_fs_root}/src/core/duration.cpp
    ${_fs_root}/src/core/parallel.cpp
    ${_fs_root}/src/reliability/fit_log.cpp
    ${_fs_root}/src/reliability/fit.cpp
    ${_fs_root}/src/reliability/gof.cpp
    ${_fs_root}/src/reliability/system.cpp
    ${_fs_root}/src/reliability/special.cpp)
  target_link_libraries(faultsweep_fuzz_fit PUBLIC faultsweep_fuzz_readers Eigen3::Eigen OpenSSL::Crypto
                        Threads::Threads)

  faultsweep_reader_fuzzer(fuzz_swf fuzz_swf.cpp)
  faultsweep_reader_fuzzer(fuzz_sacct fuzz_sacct.cpp)
  faultsweep_reader_fuzzer(fuzz_pnnl_pattern fuzz_pnnl_pattern.cpp)
  faultsweep_reader_fuzzer(fuzz_fit_csv fuzz_fit_csv.cpp)
  target_link_libraries(fuzz_fit_csv PRIVATE faultsweep_fuzz_fit)
  foreach(format lanl csv fta pnnl)
    string(TOUPPER ${format} _fs_upper)
    faultsweep_reader_fuzzer(fuzz_trace_${format} fuzz_traces.cpp
                             FAULTSWEEP_FUZZ_TRACE_${_fs_upper}=1)
  endforeach()
endif()
