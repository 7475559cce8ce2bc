# Sources of the io area (explicit list).
list(APPEND FAULTSWEEP_SOURCES
  src/io/deflate_chunks.cpp
  src/io/h5.cpp
  src/io/h5_table.cpp
  src/io/output.cpp
)
