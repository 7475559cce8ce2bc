// The laws of a distribution table, one row each: keys and the factory reading them. Every
// factory keeps the parameterisation users give (mean or scale, mean or mu, ...) and converts it
// to the Dist's own parameters, so two spellings of one law give the same Dist (and streams).
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/core/registry_rows.hpp"
#include "faultsweep/dist/law_registry.hpp"

namespace faultsweep::dist {
namespace {

// A key that may be absent (the law takes one of two alternatives); numbers >= `min`.
ParamSpec key(std::string name, ParamKind kind, std::string unit, std::string help, bool required,
              double min = 0.0) {
  ParamSpec s =
      make_param(std::move(name), kind, std::move(unit), std::nullopt, std::move(help), {}, min);
  s.optional = !required;
  return s;
}

std::string text_of(double v) {
  return canonical_value(Value(v));
}

// --- exponential ---

std::vector<ParamSpec> exponential_keys() {
  return {key("mean", ParamKind::duration, "s", "the mean (> 0; or give rate)", false),
          key("rate", ParamKind::real, "1/s", "events per second (> 0), instead of mean", false)};
}

Dist make_exponential(const TableReader& r) {
  if (r.first_of("mean", "rate")) return Dist::exponential(r.positive("mean", *r.number("mean")));
  const double mean = 1.0 / r.positive("rate", *r.number("rate"));
  if (!std::isfinite(mean))
    throw InputError("rate", r.text("rate"), "too small (1/rate overflows)");
  return Dist::exponential(mean);
}

// --- weibull ---

std::vector<ParamSpec> weibull_keys() {
  return {key("shape", ParamKind::real, "", "shape k (> 0; < 1: decreasing hazard)", true),
          key("scale", ParamKind::duration, "s", "scale (> 0; or give mean)", false),
          key("mean", ParamKind::duration, "s", "the mean (> 0), instead of scale", false)};
}

Dist make_weibull(const TableReader& r) {
  const double shape = r.positive("shape", r.required("shape"));
  if (r.first_of("scale", "mean"))
    return Dist::weibull(shape, r.positive("scale", *r.number("scale")));
  // mean = scale * Gamma(1 + 1/shape).
  const double scale = r.positive("mean", *r.number("mean")) / std::tgamma(1.0 + 1.0 / shape);
  if (!(scale > 0 && std::isfinite(scale)))
    throw InputError("mean", r.text("mean"),
                     fmt::format("cannot be converted to a scale with shape = {}", text_of(shape)));
  return Dist::weibull(shape, scale);
}

// --- lognormal ---

std::vector<ParamSpec> lognormal_keys() {
  return {key("sigma", ParamKind::real, "", "standard deviation of the log (> 0)", true),
          key("mean", ParamKind::duration, "s", "the mean (> 0; or give mu)", false),
          key("mu", ParamKind::real, "", "mean of the log of seconds, instead of mean", false,
              -std::numeric_limits<double>::infinity())};
}

Dist make_lognormal(const TableReader& r) {
  const double sigma = r.positive("sigma", r.required("sigma"));
  if (r.first_of("mean", "mu")) {
    // mean = exp(mu + sigma^2 / 2).
    const double mu = std::log(r.positive("mean", *r.number("mean"))) - 0.5 * sigma * sigma;
    if (!std::isfinite(mu)) throw InputError("sigma", r.text("sigma"), "too large");
    return Dist::lognormal(mu, sigma);
  }
  return Dist::lognormal(*r.number("mu"), sigma);
}

// --- constant ---

std::vector<ParamSpec> constant_keys() {
  return {key("value", ParamKind::duration, "s", "the value every draw takes", true)};
}

Dist make_constant(const TableReader& r) {
  const double value = r.required("value");
  if (!(value >= 0)) throw InputError("value", r.text("value"), "must be >= 0");
  return Dist::constant(value);
}

}  // namespace

std::span<const LawRow> laws() {
  static const LawRow rows[] = {
      {"exponential", "memoryless: constant hazard 1 / mean", exponential_keys, make_exponential},
      {"weibull", "survival exp(-(x / scale)^shape)", weibull_keys, make_weibull},
      {"lognormal", "the log is normal(mu, sigma)", lognormal_keys, make_lognormal},
      {"constant", "every draw is value", constant_keys, make_constant},
  };
  return rows;
}

const LawRow* find_law(std::string_view name) {
  return find_row(laws(), name);
}

std::vector<std::string> law_table_keys(const LawRow& row) {
  std::vector<std::string> names;
  for (const ParamSpec& k : row.keys()) names.push_back(k.name);
  std::sort(names.begin(), names.end());
  names.insert(names.begin(), "dist");
  return names;
}

ParamSpec law_selector(std::string help) {
  ParamSpec s = make_param("dist", ParamKind::string, "", std::nullopt, std::move(help));
  s.choices = row_names(laws());
  s.choice_keys = choice_specs(laws());
  return s;
}

}  // namespace faultsweep::dist
