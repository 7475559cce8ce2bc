# Sources of the dist area (explicit list): every distribution.
list(APPEND FAULTSWEEP_SOURCES
  src/dist/distribution.cpp
  src/dist/laws.cpp
  src/dist/zipf.cpp
  src/dist/composite_weibull.cpp
  src/dist/gamma.cpp
  src/dist/mixtures.cpp
  src/dist/log_uniform.cpp
  src/dist/empirical.cpp
)
