#pragma once
// Helpers for tests of input checking: a Params built from key/value pairs, and the key an
// InputError names.
#include <initializer_list>
#include <optional>
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

// A string value (a bare "..." would convert to bool).
inline Value str(const char* s) {
  return Value(std::string(s));
}

// The InputError `f` throws, if any.
template <class F>
std::optional<InputError> thrown_error(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  return std::nullopt;
}

// The key named by the InputError `f` throws ("" if it throws none).
template <class F>
std::string thrown_key(F&& f) {
  const auto e = thrown_error(std::forward<F>(f));
  return e ? e->key() : "";
}

// "key | expected" of the InputError `f` throws, "no error" if it throws none.
template <class F>
std::string thrown_key_expected(F&& f) {
  const auto e = thrown_error(std::forward<F>(f));
  return e ? e->key() + " | " + e->expected() : "no error";
}

}  // namespace faultsweep::testing
