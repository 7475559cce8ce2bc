#pragma once
// Size choice for moldable jobs (rigid jobs: size from the workload; moldable jobs: size chosen
// when they start, up to the size they request; Gottumukkala Ch. 6). The queue policy asks
// at the point where a job would start in queue order (FCFS, and the queue-order prefix of
// EASY); the answer is a pure function of (requested size, free nodes), so the engine can
// recompute it for the jobs the policy started.
#include <cstdint>
#include <memory>
#include <string_view>

namespace faultsweep::policy {

class SizeChooser {
 public:
  virtual ~SizeChooser() = default;
  virtual std::string_view name() const = 0;
  // The size a moldable job requesting `requested` nodes starts with when `free_nodes` are
  // free, in 1 .. min(requested, free_nodes); 0: it waits.
  virtual std::int32_t choose(std::int32_t requested, int free_nodes) const = 0;
};

// Always the requested size: moldable jobs behave exactly like rigid ones.
class MaxSize final : public SizeChooser {
 public:
  std::string_view name() const override { return "max"; }
  std::int32_t choose(std::int32_t requested, int free_nodes) const override;
};

// min(requested, free) if that is at least min_fraction x requested (and >= 1), else wait:
// with min_fraction = 0.5, a job requesting 4 starts on 2, 3 or 4 free nodes.
class FreeSize final : public SizeChooser {
 public:
  explicit FreeSize(double min_fraction) : min_fraction_(min_fraction) {}
  std::string_view name() const override { return "free"; }
  std::int32_t choose(std::int32_t requested, int free_nodes) const override;

 private:
  double min_fraction_;
};

// "max" | "free" (with min_fraction in (0, 1]); throws InputError("moldable_size" or
// "moldable_min_fraction", ...) otherwise.
std::unique_ptr<SizeChooser> make_size_chooser(std::string_view name, double min_fraction);

}  // namespace faultsweep::policy
