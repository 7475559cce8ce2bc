# Sources of the fit_command area (explicit list): the `fit` command around reliability/'s analysis --
# reading a log of any format, the summary lines, the HDF5 file it writes and `inspect` of it.
list(APPEND FAULTSWEEP_SOURCES
  src/fit_command/command.cpp
  src/fit_command/file.cpp
  src/fit_command/inspect.cpp
)
