#pragma once
// Where every metric is reported: by the name its declaration (MetricSpec: name, unit,
// description) gives, at the place it is measured. The five models, the cluster engine's
// accounting, runtime strategies and metric plug-ins all write through a MetricSink; the
// declaration fixes its column in the results file.
#include <span>
#include <string_view>
#include <vector>

#include "faultsweep/core/param_spec.hpp"

namespace faultsweep {

class MetricSink {
 public:
  virtual ~MetricSink() = default;
  virtual void add(std::string_view name, double value) = 0;
};

// A MetricSink over one replica's result slots: specs[i] names slots[i]. Every slot starts at
// 0 (a metric that the point's plug-in does not report); a name that no spec declares is a bug
// in whoever reported it.
class MetricSlots final : public MetricSink {
 public:
  MetricSlots(std::span<double> slots, std::span<const MetricSpec> specs);
  void add(std::string_view name, double value) override;
  // Fails (a bug, not an input error) unless every declared metric was reported: for a model
  // that reports all of its own.
  void require_all() const;

 private:
  std::span<double> slots_;
  std::span<const MetricSpec> specs_;
  std::vector<char> written_;
};

}  // namespace faultsweep
