# `cmake --install build --prefix P`: the binary in P/bin; the library, its public headers and a
# CMake package (find_package(faultsweep)) in P/lib, P/include, P/lib/cmake/faultsweep; the
# bundled jobs, their inputs and the Slurm scripts in P/share/faultsweep, where the binary looks
# for them (core/install_dirs.hpp). Jobs name inputs relative to the job file, so the two folders
# keep their source-tree layout side by side.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS faultsweep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS faultsweep_main RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/faultsweep)
install(TARGETS faultsweep_core EXPORT faultsweepTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/faultsweep DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(FAULTSWEEP_SHARE ${CMAKE_INSTALL_DATADIR}/faultsweep)
install(DIRECTORY jobs inputs DESTINATION ${FAULTSWEEP_SHARE})
# The Python policy API (share/faultsweep/python), found by the binary next to the jobs.
install(DIRECTORY python DESTINATION ${FAULTSWEEP_SHARE} PATTERN __pycache__ EXCLUDE)
option(FAULTSWEEP_INSTALL_SLURM "Install the Slurm scripts in share/faultsweep/slurm-scripts" ON)
if(FAULTSWEEP_INSTALL_SLURM)
  install(DIRECTORY slurm-scripts DESTINATION ${FAULTSWEEP_SHARE} USE_SOURCE_PERMISSIONS)
endif()
install(FILES README.md LICENSE CITATION.cff CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
        OPTIONAL)
# The README's links point into docs/: install it beside the README so they still resolve.
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(FAULTSWEEP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/faultsweep)
install(EXPORT faultsweepTargets NAMESPACE faultsweep:: DESTINATION ${FAULTSWEEP_CMAKE_DIR})
configure_package_config_file(cmake/faultsweepConfig.cmake.in
  ${CMAKE_BINARY_DIR}/faultsweepConfig.cmake
  INSTALL_DESTINATION ${FAULTSWEEP_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/faultsweepConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/faultsweepConfig.cmake
              ${CMAKE_BINARY_DIR}/faultsweepConfigVersion.cmake
        DESTINATION ${FAULTSWEEP_CMAKE_DIR})
