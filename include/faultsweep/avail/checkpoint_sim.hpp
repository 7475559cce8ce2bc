#pragma once
// Monte Carlo of Plank & Thomason's checkpointing system (§2, §3, §9): N processors fail and
// are repaired independently (alternating renewal processes, any distribution); a are active;
// recovery needs R + I + L seconds without an active failure and commits I of useful work; in the
// Up phase each interval of I seconds commits I - C; a failed active processor is replaced by a
// functional spare, and with no spare the application waits (Down) until a are functional.
// Only processor events are simulated; phase boundaries are computed by arithmetic.
#include <cstdint>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace faultsweep::avail {

// How processor events are drawn.
//  - per_processor: each processor's next failure or repair is drawn from its law and the
//    earliest comes next (any laws; one draw per event, a tournament tree over the processors).
//  - superposition: with both laws exponential, the machine's next event comes after an
//    exponential time of the total rate (functional x failure rate + failed x repair rate), and a
//    uniform draw picks its kind and whether it hits an active processor. The same law of the
//    system (the processes are memoryless, the processors exchangeable), other draws: a
//    statistical change from per_processor, not a last-bit one.
enum class Sampler { per_processor, superposition };

// How the superposition sampler draws its exponential times between events: by the ziggurat
// (core/ziggurat.hpp: a table lookup and one 64-bit draw for most) or by inversion, -ln U (the
// draws of results version 3). The per-processor sampler draws from the laws themselves.
enum class ExpDraws { ziggurat, inversion };

struct SimConfig {
  Sampler sampler = Sampler::per_processor;
  ExpDraws exp_draws = ExpDraws::ziggurat;  // superposition only
  int N = 32;
  int a = 1;
  double I_s = 0, C_s = 0, L_s = 0, R_s = 0;
  dist::Dist failure = dist::Dist::exponential(1.0);  // time to failure of one processor
  dist::Dist repair = dist::Dist::exponential(1.0);   // time to repair of one processor
  double horizon_s = 0;                               // simulated wall-clock time
};

struct SimResult {
  double useful_s = 0;       // committed useful work
  double total_s = 0;        // = horizon
  double down_s = 0;         // time with fewer than a functional processors (System Down)
  double recovery_s = 0;     // time in System Recovery (recovery_s + up_s + down_s = total_s)
  double up_s = 0;           // time in System Up
  std::uint64_t events = 0;  // processor failures + repairs simulated
  std::uint64_t active_failures = 0;  // failures that hit the application
  std::uint64_t checkpoints = 0;      // completed checkpoints (incl. the first after recovery)
  std::uint64_t recoveries = 0;       // successful recoveries (each commits I)
  double availability() const { return total_s > 0 ? useful_s / total_s : 0.0; }
};

// Simulates one replica. per_processor: failures draws times to failure, repairs draws repair
// times, each in event order (the N first times to failure in processor order at time 0).
// superposition (both laws exponential, else InternalError): failures draws the times between
// events, repairs the uniforms that pick them. Either way the processors' history depends on N
// and the laws only, not on a, I, C, L or R (common random numbers across the application). All
// processors start new and functional; the application starts a recovery at time 0 on processors
// 0..a-1. Simultaneous events are processed in processor-index order; a failure at exactly the end
// of a recovery or of an interval comes after that checkpoint. Throws InternalError on a config
// that the model's validation should have rejected (a > N, I < L, I <= C, horizon <= 0).
SimResult simulate_checkpointing(const SimConfig& cfg, Engine& failures, Engine& repairs);

}  // namespace faultsweep::avail
