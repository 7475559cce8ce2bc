# Run at every build (cmake -P): writes OUT from IN with the current git revision, touching OUT
# only when its text changes, so `faultsweep --version` and the results files' git_sha name the
# commit that was built, not the one CMake was configured at. Outside a git checkout (a release
# tarball) the revision is "unknown".
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE FAULTSWEEP_GIT_SHA OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT FAULTSWEEP_GIT_SHA)
  set(FAULTSWEEP_GIT_SHA "unknown")
endif()
configure_file(${IN} ${OUT} @ONLY)
