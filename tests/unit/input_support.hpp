#pragma once
// Helpers for tests of input checking: a Params built from key/value pairs, and the key an
// InputError names.
#include <initializer_list>
#include <string>
#include <utility>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/params.hpp"

namespace faultsweep::testing {

inline Params make_params(std::initializer_list<std::pair<const char*, Value>> kv) {
  Params p;
  for (const auto& [k, v] : kv) p.set(k, v);
  return p;
}

// The key named by the InputError `f` throws ("" if it throws none).
template <class F>
std::string thrown_key(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.key();
  }
  return "";
}

}  // namespace faultsweep::testing
