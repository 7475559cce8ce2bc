#include "faultsweep/policy/registry.hpp"

#include <algorithm>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/policy/fars.hpp"
#include "faultsweep/policy/least_failure_first.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/policy/zhang_checkpointing.hpp"

namespace faultsweep::policy {

void throw_unknown(std::string_view key, std::string_view name, const std::string& expected) {
  throw InputError(std::string(key), std::string(name), expected);
}

namespace {

template <class T>
std::unique_ptr<QueuePolicy> make_queue(const Params&) {
  return std::make_unique<T>();
}
template <class T>
std::unique_ptr<Allocator> make_alloc(const Params&) {
  return std::make_unique<T>();
}

const Choice<QueueFactory, QueueTraits> kQueues[] = {
    {"fcfs", "first come, first served", make_queue<Fcfs>},
    {"easy", "FCFS with EASY backfilling", make_queue<EasyBackfill>},
    {"conservative",
     "conservative backfilling",
     make_queue<ConservativeBackfill>,
     {.keeps_state = ConservativeBackfill::kKeepsState}},
};

std::vector<MetricSpec> reliability_fit_metrics() {
  return {{"allocator_node_fits", "1",
           "per-node MLE fits the reliability-aware allocator (ras, ljras, ra) ran at its refit "
           "instants (a node is refitted only when its failure count changed)"}};
}
std::vector<MetricSpec> ra_opt_fit_metrics() {
  return {{"size_chooser_node_fits", "1",
           "per-node MLE fits moldable_size = \"ra_opt\" ran at its refit instants"}};
}

const Choice<AllocatorFactory, PlacementTraits> kAllocators[] = {
    {"first_fit", "lowest free ids", make_alloc<FirstFit>},
    {"round_robin", "the next free ids after the last handed out, wrapping",
     make_alloc<RoundRobin>},
    {"lff", "Least Failure First: fewest failures so far, then lowest ids (Zhang §5.2.3)",
     make_alloc<LeastFailureFirst>},
    {"ras",
     "Gottumukkala Fig. 5.1: the k adjacent free nodes of max R_sys over the run time",
     [](const Params& p) { return make_reliability_allocator(ReliabilityMode::ras, p); },
     {reliability_fit_metrics}},
    {"ljras",
     "Gottumukkala Fig. 5.4: max R_sys window above ljras_threshold, min below",
     [](const Params& p) { return make_reliability_allocator(ReliabilityMode::ljras, p); },
     {reliability_fit_metrics}},
    {"ra",
     "Gottumukkala §6.4.1.3: the k most reliable free nodes",
     [](const Params& p) { return make_reliability_allocator(ReliabilityMode::ra, p); },
     {reliability_fit_metrics}},
};

const Choice<SizeFactory, PlacementTraits> kSizes[] = {
    {"max", "the requested size (rigid)",
     [](const Params&) -> std::unique_ptr<SizeChooser> { return std::make_unique<MaxSize>(); }},
    {"free", "min(requested, free) if >= moldable_min_fraction x requested, else wait",
     [](const Params& p) -> std::unique_ptr<SizeChooser> {
       return std::make_unique<FreeSize>(p.real("moldable_min_fraction"));
     }},
    {"ra_opt",
     "Gottumukkala Fig. 6.6: grow k while E[T_c(k+1)] <= E[T_c(k)] (Eq. 6.1)",
     make_ra_opt,
     {ra_opt_fit_metrics}},
    {"all", "Gottumukkala §6.4.1.1: every up node, once no job holds any",
     [](const Params&) -> std::unique_ptr<SizeChooser> { return std::make_unique<AllSize>(); }},
};

const Choice<CheckpointMode> kCheckpoints[] = {
    {"none", "no checkpoints", CheckpointMode::none},
    {"periodic", "every checkpoint_interval of work", CheckpointMode::periodic},
    {"young", "Young's optimum sqrt(2 C M), M = node MTBF / size", CheckpointMode::young},
    {"daly", "Daly's higher-order optimum for M = node MTBF / size", CheckpointMode::daly},
};

const Choice<OnFailure> kFailureRules[] = {
    {"requeue_head", "requeued at the head of the queue", OnFailure::requeue_head},
    {"requeue_original", "requeued at its original place", OnFailure::requeue_original},
    {"wait_repair", "suspended on its nodes until the repair (FARS §5.1)", OnFailure::wait_repair},
};

template <FarsStrategy K>
std::unique_ptr<RuntimeStrategy> make_fars(const Params& p) {
  return std::make_unique<FarsRuntime>(K, p);
}

template <BucketChoice C>
std::unique_ptr<RuntimeStrategy> make_bucket(const Params& p) {
  return std::make_unique<BucketCheckpointing>(C, p);
}

constexpr std::string_view kFarsPredictor = "{ precision = p, recall = r } or { kind = \"none\" }";
constexpr std::string_view kBucketPredictor =
    "{ precision = 1, recall = 1 } is Zhang's exact bucket oracle";

// FARS (Li et al. 2009): reads the predictor every fars.interval, keeps the head's reservation.
constexpr StrategyTraits fars_traits() {
  StrategyTraits t;
  t.needs_predictor = true;
  t.predictor_hint = kFarsPredictor;
  t.needs_failures = true;
  t.stateless_queue_only = true;
  t.table = "fars";
  t.table_required = true;
  t.table_hint = "{ interval = ..., ... }";
  t.table_spec = fars_table_spec;
  t.validate = validate_fars_table;
  t.metrics = fars_metrics;
  return t;
}

// Zhang et al. §5.2: the `zhang` table; the bucket heuristics read the predictor.
constexpr StrategyTraits zhang_traits(bool checkpoints, bool buckets) {
  StrategyTraits t;
  t.checkpoints_jobs = checkpoints;
  t.needs_predictor = buckets;
  t.predictor_hint = buckets ? kBucketPredictor : std::string_view();
  t.needs_failures = buckets;
  t.table = "zhang";
  t.table_spec = zhang_table_spec;
  t.validate = validate_zhang_table;
  return t;
}
constexpr StrategyTraits kFars = fars_traits();
constexpr StrategyTraits kZhang = zhang_traits(false, false);
constexpr StrategyTraits kZhangCheckpoint = zhang_traits(true, false);
constexpr StrategyTraits kBucket = zhang_traits(true, true);

}  // namespace

// Plug-ins in src/policy/plugins/ (one file each: the class, its factory and its traits).
std::unique_ptr<RuntimeStrategy> make_preventive_migration(const Params& point);
StrategyTraits preventive_migration_traits();

namespace {

const Choice<StrategyFactory, StrategyTraits> kStrategies[] = {
    {"none", "no runtime strategy",
     [](const Params&) -> std::unique_ptr<RuntimeStrategy> {
       return std::make_unique<NoStrategy>();
     }},
    {"sul_d", "FARS rescheduling by service-unit-loss gain (Li et al. Eq. 2)",
     make_fars<FarsStrategy::sul_d>, kFars},
    {"jfr_d", "FARS rescheduling by job-failure-rate gain (Eq. 3)", make_fars<FarsStrategy::jfr_d>,
     kFars},
    {"fsd_d", "FARS rescheduling by failure-slowdown gain (Eq. 4)", make_fars<FarsStrategy::fsd_d>,
     kFars},
    {"predict_exact", "Zhang §5.2.1: the job a failure will hit checkpoints just before it",
     [](const Params& p) -> std::unique_ptr<RuntimeStrategy> {
       return std::make_unique<PredictExact>(p);
     },
     kZhangCheckpoint},
    {"bucket_all", "Zhang §5.2.2: checkpoint all running jobs in buckets predicted to fail",
     make_bucket<BucketChoice::all>, kBucket},
    {"bucket_long", "Zhang §5.2.2: checkpoint jobs running >= zhang.long_run in such buckets",
     make_bucket<BucketChoice::longer>, kBucket},
    {"bucket_big", "Zhang §5.2.2: checkpoint the zhang.big_k largest jobs in such buckets",
     make_bucket<BucketChoice::big>, kBucket},
    {"lff_migrate", "Zhang §5.2.3: on a job end, migrate later jobs to safer idle nodes",
     [](const Params& p) -> std::unique_ptr<RuntimeStrategy> {
       return std::make_unique<LffMigration>(p);
     },
     kZhang},
    {"preventive_migrate",
     "move processes off nodes that failed more than preventive.max_failures times in the last "
     "preventive.window, every preventive.interval (example plug-in)",
     make_preventive_migration, preventive_migration_traits()},
};

}  // namespace

std::span<const Choice<QueueFactory, QueueTraits>> queue_policies() {
  return kQueues;
}
std::span<const Choice<AllocatorFactory, PlacementTraits>> allocators() {
  return kAllocators;
}
std::span<const Choice<SizeFactory, PlacementTraits>> size_choosers() {
  return kSizes;
}
std::span<const Choice<CheckpointMode>> checkpoint_policies() {
  return kCheckpoints;
}
std::span<const Choice<OnFailure>> failure_rules() {
  return kFailureRules;
}
std::span<const Choice<StrategyFactory, StrategyTraits>> strategies() {
  return kStrategies;
}

namespace {
// The metrics the rows of `table` declare, appended to `out` (each name once, in row order).
template <class Table>
void add_row_metrics(Table table, std::vector<MetricSpec>& out) {
  for (const auto& row : table) {
    if (row.traits.metrics == nullptr) continue;
    for (MetricSpec& m : row.traits.metrics())
      if (std::none_of(out.begin(), out.end(),
                       [&](const MetricSpec& o) { return o.name == m.name; }))
        out.push_back(std::move(m));
  }
}
}  // namespace

std::vector<MetricSpec> strategy_metrics() {
  std::vector<MetricSpec> out;
  add_row_metrics(strategies(), out);
  return out;
}

std::vector<MetricSpec> placement_metrics() {
  std::vector<MetricSpec> out;
  add_row_metrics(allocators(), out);
  add_row_metrics(size_choosers(), out);
  return out;
}

CheckpointMode checkpoint_mode_from(std::string_view name) {
  return find_choice(checkpoint_policies(), "checkpoint", name).make;
}

OnFailure on_failure_from(std::string_view name) {
  return find_choice(failure_rules(), "on_failure", name).make;
}

// The checkpoint interval of a job of `size` nodes (Zhang §5.1 periodic; Young / Daly optima
// with the job's MTBF M = node MTBF / size: any of its nodes failing interrupts it).
double CheckpointPolicy::interval_for(std::int32_t size) const {
  double interval = std::numeric_limits<double>::infinity();
  const double m_s = node_mtbf_s / std::max(1, size);
  switch (mode) {
    case CheckpointMode::none:
      break;
    case CheckpointMode::periodic:
      interval = interval_s;
      break;
    case CheckpointMode::young:
      if (std::isfinite(m_s)) interval = young_interval_s(cost_s, m_s);
      break;
    case CheckpointMode::daly:
      if (std::isfinite(m_s)) interval = daly_interval_s(cost_s, m_s);
      break;
  }
  FS_CHECK(interval > 0, "checkpoint interval must be > 0");
  return interval;
}

}  // namespace faultsweep::policy
