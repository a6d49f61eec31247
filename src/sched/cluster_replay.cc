#include "sched/cluster_replay.h"

#include <algorithm>
#include <cassert>
#include <list>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "engine/simulator.h"
#include "sched/comm_scheduling.h"
#include "sched/easy_backfill.h"
#include "sched/placement_policy.h"
#include "sched/replay_comm_edges.h"
#include "sched/replay_fabric.h"
#include "sched/replay_job.h"
#include "sched/replay_metrics.h"
#include "sched/replay_window.h"
#include "sched/topology_distance.h"

namespace aifabric {
namespace {

// The engine keeps time in int64 picoseconds (106 days); a replay stops
// short of that.
constexpr double kMaxReplayDays = 100;
// Queued jobs a scheduling pass looks at beyond the head (Slurm's
// bf_max_job_test bounds its backfill scan the same way).
constexpr int kMaxBackfillTests = 500;

// Event tags: job index << 4 | kind.
enum EventKind : uint64_t {
  kArrival = 0,
  kSchedulePass = 1,
  kFirstMacro = 2,     // after CASSINI's offset
  kComputeHead = 3,    // the compute before the overlappable communication ended
  kComputeTail = 4,    // the compute beside it ended
  kLocalJobEnd = 5,    // a job without fabric traffic ended (closed form)
  kCheckpointTimer = 6,
  kWindowOpens = 7,
  kLinkDown = 8,   // job index = the failure's index
  kLinkUp = 9,
  kReroute = 10,
};
enum CoflowKind : uint64_t { kGradient = 0, kAllToAll = 1, kCheckpoint = 2 };

uint64_t Tag(size_t job, uint64_t kind) { return static_cast<uint64_t>(job) << 4 | kind; }

std::string CommName(const ReplayOptions& o) {
  if (o.crux && o.cassini) return "crux+cassini";
  if (o.crux) return "crux";
  if (o.cassini) return "cassini";
  return "none";
}

class Replay final : public EventHandler {
 public:
  Replay(const Topology& topology, const RoutingTable& routes, const ClusterLayout& layout,
         std::span<const TraceJob> jobs, const ReplayOptions& options)
      : topology_(topology),
        layout_(layout),
        options_(options),
        sim_(options.seed),
        distance_(topology, layout),
        allocation_(layout),
        fabric_(sim_, topology, routes, options.payload_efficiency, options.ecmp_seed,
                Time::FromSeconds(options.load_window_s), options.storage_servers,
                [this](uint64_t id, Time) { OnCoflowDone(id); }),
        window_(options.window_start_s, options.window_s) {
    jobs_.resize(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) jobs_[i].trace = &jobs[i];
  }

  Result<ReplayResult> Run();
  void OnEvent(uint64_t tag) override;

 private:
  Status Prepare();
  void RequestPass();
  void SchedulePass();
  bool TryStart(size_t j);
  void StartJob(size_t j, std::vector<GpuId> gpus);
  Time CassiniOffset(const ReplayJob& job) const;
  void StartMacro(size_t j);
  void OnComputeHead(size_t j);
  void PartDone(size_t j);
  void EndMacro(size_t j);
  void FinishJob(size_t j);
  void MaybeCheckpoint(size_t j);
  void OnCoflowDone(uint64_t id);
  double CruxWeight(const ReplayJob& job) const;
  void OpenWindow();
  void ChangeLink(size_t failure, bool up);
  void RerouteAffected();
  void RouteJob(size_t j);
  void RecordWindowFlows(size_t j, CoflowKind kind, double scale);
  double IdleMacroSeconds(const ReplayJob& job, double iterations) const;

  const Topology& topology_;
  const ClusterLayout& layout_;
  const ReplayOptions& options_;
  Simulator sim_;
  TopologyDistance distance_;
  GpuAllocation allocation_;
  ReplayFabric fabric_;
  std::unique_ptr<PlacementPolicy> policy_;
  std::vector<ReplayJob> jobs_;
  std::list<size_t> queue_;      // waiting jobs, in arrival order
  std::vector<size_t> running_;  // started, not finished (unordered)
  bool pass_pending_ = false;
  size_t finished_ = 0;
  bool cancelled_ = false;  // options_.cancel was set: stopped early
  std::string stuck_;  // a job no placement can ever take
  ReplayWindow window_;
  uint64_t reroutes_ = 0;
  int links_down_ = 0;
  bool reroute_pending_ = false;
  // Jobs keep their flows for the packet window and for rerouting.
  bool keep_edges_ = false;
};

double Replay::IdleMacroSeconds(const ReplayJob& job, double iterations) const {
  return IterationSeconds(job.profile.compute_s * iterations, options_.job_model.overlap_fraction,
                          fabric_.IdleDuration(job.gradient, iterations).seconds(),
                          fabric_.IdleDuration(job.alltoall, iterations).seconds());
}

Status Replay::Prepare() {
  keep_edges_ = options_.window_start_s >= 0 || !options_.link_failures.empty();
  for (int s : options_.storage_servers) {
    std::vector<GpuId> gpus;
    for (int i = 0; i < layout_.gpus_per_server(); ++i) gpus.push_back(s * layout_.gpus_per_server() + i);
    Status st = allocation_.Allocate("storage-server-" + std::to_string(s), gpus);
    if (!st.ok()) return st;
  }
  Result<std::unique_ptr<PlacementPolicy>> policy =
      MakePlacementPolicy(options_.policy, topology_, layout_, options_.seed, &fabric_);
  if (!policy.ok()) return Error{"policy: " + policy.error().message};
  policy_ = std::move(*policy);
  const int schedulable_servers = layout_.servers() - static_cast<int>(options_.storage_servers.size());
  const int gps = layout_.gpus_per_server();
  std::unordered_map<std::string, ModelSpec> models;
  // The fastest a NIC moves a job's payload, for the estimates made before
  // placement.
  const double nic_bytes_per_s =
      static_cast<double>(FastestNicRate(topology_, layout_).bps()) * options_.payload_efficiency / 8;
  for (ReplayJob& job : jobs_) {
    const TraceJob& t = *job.trace;
    auto it = models.find(t.model);
    if (it == models.end()) {
      Result<ModelSpec> m = FindModel(t.model);
      if (!m.ok()) return Error{"job '" + t.job_id + "': " + m.error().message};
      it = models.emplace(t.model, std::move(*m)).first;
    }
    const int servers_needed = std::max(1, WholeServersNeeded(t.gpus, gps));
    if (t.gpus > schedulable_servers * gps || servers_needed > schedulable_servers) {
      return Error{"job '" + t.job_id + "': asks for " + std::to_string(t.gpus) + " GPUs, the cluster schedules " +
                   std::to_string(schedulable_servers * gps)};
    }
    job.ProfileBeforePlacement(it->second, gps, options_.job_model, nic_bytes_per_s);
    if (!(job.estimate_s < kMaxReplayDays * 86400)) {
      return Error{"job '" + t.job_id + "': " + std::to_string(t.iterations) + " iterations take " +
                   std::to_string(static_cast<int64_t>(job.estimate_s / 86400)) + " days even alone, beyond the " +
                   std::to_string(static_cast<int>(kMaxReplayDays)) + " days a replay may simulate"};
    }
  }
  return {};
}

Result<ReplayResult> Replay::Run() {
  if (Status st = Prepare(); !st.ok()) return st.error();
  // The window opens before anything else at its instant, so a coflow
  // starting then is recorded once, as starting inside it.
  if (options_.window_start_s >= 0) sim_.Schedule(Time::FromSeconds(options_.window_start_s), this, Tag(0, kWindowOpens));
  for (size_t f = 0; f < options_.link_failures.size(); ++f) {
    const LinkFailure& failure = options_.link_failures[f];
    sim_.Schedule(Time::FromSeconds(failure.at_s), this, Tag(f, kLinkDown));
    if (failure.for_s > 0) sim_.Schedule(Time::FromSeconds(failure.at_s + failure.for_s), this, Tag(f, kLinkUp));
  }
  for (size_t j = 0; j < jobs_.size(); ++j) sim_.Schedule(Time::FromSeconds(jobs_[j].trace->submit_s), this, Tag(j, kArrival));
  sim_.Run(Time::FromSeconds(kMaxReplayDays * 86400));
  if (cancelled_) return Error{"cancelled"};
  if (!stuck_.empty()) return Error{stuck_};
  if (finished_ != jobs_.size()) {
    return Error{"the replay reached " + std::to_string(static_cast<int>(kMaxReplayDays)) +
                 " days of simulated time with " + std::to_string(jobs_.size() - finished_) +
                 " jobs unfinished (the engine's limit); shorten the trace"};
  }
  ReplayResult result;
  result.policy = options_.policy;
  result.comm = CommName(options_);
  result.jobs.reserve(jobs_.size());
  for (const ReplayJob& job : jobs_) result.jobs.push_back(job.Result());
  const int schedulable = layout_.gpus() - static_cast<int>(options_.storage_servers.size()) * layout_.gpus_per_server();
  result.metrics = ComputeReplayMetrics(result.jobs, schedulable);
  result.metrics.fabric_util = fabric_.SwitchPortUtilization(result.metrics.makespan_s);
  result.window_flows = window_.TakeFlows();
  result.metrics.reroutes = reroutes_;
  result.metrics.events = sim_.events_processed();
  result.metrics.rate_solves = fabric_.solves();
  return result;
}

void Replay::OnEvent(uint64_t tag) {
  if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
    cancelled_ = true;
    sim_.Stop();
    return;
  }
  const size_t j = static_cast<size_t>(tag >> 4);
  switch (tag & 15) {
    case kArrival:
      queue_.push_back(j);
      RequestPass();
      break;
    case kSchedulePass:
      pass_pending_ = false;
      SchedulePass();
      break;
    case kFirstMacro:
      StartMacro(j);
      break;
    case kComputeHead:
      OnComputeHead(j);
      break;
    case kComputeTail:
      PartDone(j);
      break;
    case kLocalJobEnd:
      FinishJob(j);
      break;
    case kCheckpointTimer:
      MaybeCheckpoint(j);
      break;
    case kWindowOpens:
      OpenWindow();
      break;
    case kLinkDown:
      ChangeLink(j, false);
      break;
    case kLinkUp:
      ChangeLink(j, true);
      break;
    case kReroute:
      RerouteAffected();
      break;
    default:
      assert(false);
  }
}

void Replay::RequestPass() {
  if (pass_pending_) return;
  pass_pending_ = true;
  sim_.Schedule(sim_.Now(), this, Tag(0, kSchedulePass));  // after this instant's other events
}

void Replay::SchedulePass() {
  fabric_.RefreshMeasuredLoad();
  const Time now = sim_.Now();
  // The head starts while it can; once it cannot, it reserves, and at most
  // kMaxBackfillTests jobs behind it are looked at (so a pass costs
  // O(kMaxBackfillTests) however long the queue).
  auto it = queue_.begin();
  while (it != queue_.end() && TryStart(*it)) it = queue_.erase(it);
  if (it == queue_.end()) return;
  const ReplayJob& head = jobs_[*it];
  if (running_.empty()) {
    stuck_ = "job '" + head.trace->job_id + "' (" + std::to_string(head.trace->gpus) + " GPUs): policy '" +
             options_.policy + "' cannot place it even on an idle cluster";
    sim_.Stop();
    return;
  }
  std::vector<RunningJobEnd> ends;
  ends.reserve(running_.size());
  for (size_t r : running_) ends.push_back({std::max(now, jobs_[r].expected_end), jobs_[r].trace->gpus});
  BackfillReservation reservation = ReserveForHead(now, head.trace->gpus, allocation_.free_count(), ends);
  ++it;
  for (int tested = 0; it != queue_.end() && tested < kMaxBackfillTests && allocation_.free_count() > 0; ++tested) {
    const ReplayJob& job = jobs_[*it];
    const Time run = Time::FromSeconds(job.estimate_s);
    const bool ends_before = !reservation.shadow.IsInfinite() && now + run <= reservation.shadow;
    if (job.trace->gpus <= allocation_.free_count() && MayBackfill(reservation, now, run, job.trace->gpus) &&
        TryStart(*it)) {
      if (!ends_before) reservation.extra_gpus -= job.trace->gpus;
      it = queue_.erase(it);
    } else {
      ++it;
    }
  }
}

bool Replay::TryStart(size_t j) {
  ReplayJob& job = jobs_[j];
  PlacementRequest request;
  request.job_id = job.trace->job_id;
  request.gpus = job.trace->gpus;
  request.fabric_bytes_per_s_per_gpu = job.fabric_bytes_per_s_per_gpu;
  if (options_.job_model.checkpoint_interval_s > 0) {
    request.storage_bytes_per_s_per_gpu =
        static_cast<double>(job.profile.checkpoint_bytes_per_gpu) / options_.job_model.checkpoint_interval_s;
  }
  std::optional<std::vector<GpuId>> gpus = policy_->Place(request, allocation_);
  if (!gpus) return false;
  Status st = allocation_.Allocate(job.trace->job_id, *gpus);
  assert(st.ok());  // policies propose free GPUs only
  (void)st;
  StartJob(j, std::move(*gpus));
  return true;
}

void Replay::StartJob(size_t j, std::vector<GpuId> gpus) {
  ReplayJob& job = jobs_[j];
  job.gpus = std::move(gpus);
  job.started = true;
  job.start = sim_.Now();
  job.tiers = distance_.TiersCrossed(layout_, job.gpus);
  int last_server = -1;
  for (GpuId g : job.gpus) {
    if (layout_.server_of(g) != last_server) ++job.servers;
    last_server = layout_.server_of(g);
  }
  running_.push_back(j);
  const JobProfile& p = job.profile;
  const uint64_t iterations = job.trace->iterations;
  const uint64_t key = static_cast<uint64_t>(j) * 4;
  // Route the job's flows. With Crux, each picks the least-loaded ECMP path,
  // counting what this job itself adds at its uncontended pace.
  const double pace = job.estimated_iterations_per_s();
  const std::vector<CommEdge> gradient = GradientAndPipelineEdges(p, job.training, layout_, job.gpus);
  const std::vector<CommEdge> alltoall = AllToAllEdges(p, layout_, job.gpus);
  job.gradient = fabric_.Route(gradient, key + kGradient, options_.crux, pace);
  job.alltoall = fabric_.Route(alltoall, key + kAllToAll, options_.crux, pace);
  if (keep_edges_) {
    job.gradient_edges = gradient;
    job.alltoall_edges = alltoall;
  }
  job.detoured = links_down_ > 0;
  if (options_.job_model.checkpoint_interval_s > 0 && job.training && p.checkpoint_bytes_per_gpu > 0) {
    const std::vector<CommEdge> edges =
        CheckpointEdges(p, layout_, job.gpus, options_.storage_servers,
                        [this](int a, int b) { return distance_.ServerTiers(a, b); });
    job.checkpoint = fabric_.Route(edges, key + kCheckpoint, options_.crux, 0.0);
    if (keep_edges_) job.checkpoint_edges = edges;
    job.next_checkpoint = job.start + Time::FromSeconds(options_.job_model.checkpoint_interval_s);
  }
  if (!job.on_fabric()) {
    const double run_s = job.LocalIterationSeconds(options_.job_model) * static_cast<double>(iterations);
    job.run_idle_s = run_s;
    job.expected_end = job.start + Time::FromSeconds(run_s);
    sim_.Schedule(job.expected_end, this, Tag(j, kLocalJobEnd));
    if (!job.checkpoint.empty() && job.next_checkpoint < job.expected_end) {
      sim_.Schedule(job.next_checkpoint, this, Tag(j, kCheckpointTimer));
    }
    return;
  }
  // Fold the iterations into at most max_phases_per_job macro-iterations.
  job.Fold(options_.max_phases_per_job);
  for (uint64_t m = 0; m < job.macros; ++m) job.run_idle_s += IdleMacroSeconds(job, job.MacroIterations(m));
  const double per_iteration = job.run_idle_s / static_cast<double>(iterations);
  job.gradient_ref_per_s = job.gradient.reference_bytes / per_iteration;
  job.alltoall_ref_per_s = job.alltoall.reference_bytes / per_iteration;
  job.AddExpectedLoad(fabric_, +1);
  double fabric_bytes = 0;
  for (const CommEdge& e : gradient) fabric_bytes += e.bytes;
  for (const CommEdge& e : alltoall) fabric_bytes += e.bytes;
  job.intensity = fabric_bytes > 0 ? p.flops_per_gpu * job.trace->gpus / fabric_bytes : 0.0;
  const Time offset = options_.cassini ? CassiniOffset(job) : Time::Zero();
  job.expected_end = job.start + offset + Time::FromSeconds(job.run_idle_s);
  job.macro_started = job.start + offset;
  sim_.Schedule(job.start + offset, this, Tag(j, kFirstMacro));
}

// CASSINI's offset (CassiniOffsetSeconds) against the running jobs sharing a
// port with this one, every cycle taken at its idle-fabric pace from its
// current macro-iteration.
Time Replay::CassiniOffset(const ReplayJob& job) const {
  const double f = options_.job_model.overlap_fraction;
  auto windows = [&](const ReplayJob& x, double iterations, double& head, double& comm) {
    head = (1 - f) * x.profile.compute_s * iterations;
    comm = IdleMacroSeconds(x, iterations) - head;
  };
  double head = 0, comm = 0;
  windows(job, job.MacroIterations(0), head, comm);
  const double period = head + comm;
  if (comm <= 0 || period <= 0) return Time::Zero();
  std::unordered_set<int> mine(job.gradient.ports.begin(), job.gradient.ports.end());
  mine.insert(job.alltoall.ports.begin(), job.alltoall.ports.end());
  std::vector<CommCycle> others;
  for (size_t r : running_) {
    const ReplayJob& x = jobs_[r];
    if (&x == &job || !x.on_fabric() || x.macros_done >= x.macros) continue;
    bool shares = false;
    for (int p : x.gradient.ports) shares = shares || mine.count(p) > 0;
    for (int p : x.alltoall.ports) shares = shares || mine.count(p) > 0;
    if (!shares) continue;
    double h = 0, c = 0;
    windows(x, x.MacroIterations(x.macros_done), h, c);
    others.push_back({x.macro_started.seconds(), h, c, h + c});
  }
  return Time::FromSeconds(CassiniOffsetSeconds(sim_.Now().seconds(), head, comm, others));
}

// Crux: the job's weight from its rank by GPU intensity among the running
// jobs on the fabric.
double Replay::CruxWeight(const ReplayJob& job) const {
  int lower = 0, total = 0;
  for (size_t r : running_) {
    const ReplayJob& x = jobs_[r];
    if (!x.on_fabric()) continue;
    ++total;
    if (x.intensity < job.intensity) ++lower;
  }
  return CruxWeightForRank(lower, total);
}

void Replay::StartMacro(size_t j) {
  ReplayJob& job = jobs_[j];
  job.macro_started = sim_.Now();
  const double head = (1 - options_.job_model.overlap_fraction) * job.profile.compute_s *
                      job.MacroIterations(job.macros_done);
  sim_.Schedule(sim_.Now() + Time::FromSeconds(head), this, Tag(j, kComputeHead));
}

void Replay::OnComputeHead(size_t j) {
  ReplayJob& job = jobs_[j];
  const double iterations = job.MacroIterations(job.macros_done);
  const double tail = options_.job_model.overlap_fraction * job.profile.compute_s * iterations;
  job.pending = 1;
  sim_.Schedule(sim_.Now() + Time::FromSeconds(tail), this, Tag(j, kComputeTail));
  job.comm_started = sim_.Now();
  if (!job.gradient.empty()) {
    ++job.pending;
    fabric_.Start(Tag(j, kGradient), job.gradient, iterations, options_.crux ? CruxWeight(job) : 1.0);
    job.gradient_active = true;
    if (window_.Contains(sim_.Now())) RecordWindowFlows(j, kGradient, iterations);
    job.comm_idle_s += fabric_.IdleDuration(job.gradient, iterations).seconds();
  }
}

void Replay::PartDone(size_t j) {
  ReplayJob& job = jobs_[j];
  if (--job.pending > 0) return;
  if (!job.alltoall.empty()) {
    const double iterations = job.MacroIterations(job.macros_done);
    job.comm_started = sim_.Now();
    fabric_.Start(Tag(j, kAllToAll), job.alltoall, iterations, options_.crux ? CruxWeight(job) : 1.0);
    job.alltoall_active = true;
    if (window_.Contains(sim_.Now())) RecordWindowFlows(j, kAllToAll, iterations);
    job.comm_idle_s += fabric_.IdleDuration(job.alltoall, iterations).seconds();
    return;
  }
  EndMacro(j);
}

void Replay::EndMacro(size_t j) {
  ReplayJob& job = jobs_[j];
  ++job.macros_done;
  MaybeCheckpoint(j);
  if (job.macros_done == job.macros) {
    FinishJob(j);
  } else {
    StartMacro(j);
  }
}

void Replay::MaybeCheckpoint(size_t j) {
  ReplayJob& job = jobs_[j];
  if (job.checkpoint.empty() || job.finished || job.checkpoint_active || sim_.Now() < job.next_checkpoint) return;
  job.checkpoint_active = true;
  fabric_.Start(Tag(j, kCheckpoint), job.checkpoint, 1.0, 1.0);
  if (window_.Contains(sim_.Now())) RecordWindowFlows(j, kCheckpoint, 1.0);
  const Time interval = Time::FromSeconds(options_.job_model.checkpoint_interval_s);
  job.next_checkpoint = sim_.Now() + interval;
  if (!job.on_fabric() && job.next_checkpoint < job.expected_end) {
    sim_.Schedule(job.next_checkpoint, this, Tag(j, kCheckpointTimer));
  }
}

void Replay::OnCoflowDone(uint64_t id) {
  const size_t j = static_cast<size_t>(id >> 4);
  ReplayJob& job = jobs_[j];
  switch (id & 15) {
    case kGradient:
      job.gradient_active = false;
      job.comm_s += (sim_.Now() - job.comm_started).seconds();
      PartDone(j);
      break;
    case kAllToAll:
      job.alltoall_active = false;
      job.comm_s += (sim_.Now() - job.comm_started).seconds();
      EndMacro(j);
      break;
    case kCheckpoint:
      job.checkpoint_active = false;
      break;
    default:
      assert(false);
  }
}

// The coflow `kind` of job `j` as flows of the window: `scale` times its
// edges' bytes, from now.
void Replay::RecordWindowFlows(size_t j, CoflowKind kind, double scale) {
  const ReplayJob& job = jobs_[j];
  const std::vector<CommEdge>& edges =
      kind == kGradient ? job.gradient_edges : kind == kAllToAll ? job.alltoall_edges : job.checkpoint_edges;
  const char* what = kind == kGradient ? "gradient" : kind == kAllToAll ? "alltoall" : "checkpoint";
  window_.Record(job.trace->job_id, what, edges, scale, sim_.Now());
}

// A link fails or comes back. The running jobs it concerns are routed
// again once per instant (after every change at that instant), so many
// links failing together cost one pass.
void Replay::ChangeLink(size_t failure, bool up) {
  fabric_.SetLinkUp(options_.link_failures[failure].link, up);
  links_down_ += up ? -1 : 1;
  if (reroute_pending_) return;
  reroute_pending_ = true;
  sim_.Schedule(sim_.Now(), this, Tag(0, kReroute));
}

// Routes again every running job that crosses a down link or was routed
// while a link was down (it may go back to its ECMP paths).
void Replay::RerouteAffected() {
  reroute_pending_ = false;
  for (size_t j : running_) {
    ReplayJob& job = jobs_[j];
    const bool affected = job.detoured || fabric_.CrossesDownLink(job.gradient) ||
                          fabric_.CrossesDownLink(job.alltoall) || fabric_.CrossesDownLink(job.checkpoint);
    if (!affected) continue;
    RouteJob(j);
    job.detoured = links_down_ > 0;
  }
}

void Replay::RouteJob(size_t j) {
  ReplayJob& job = jobs_[j];
  const uint64_t key = static_cast<uint64_t>(j) * 4;
  const double pace = job.estimated_iterations_per_s();
  job.AddExpectedLoad(fabric_, -1);
  job.gradient = fabric_.Route(job.gradient_edges, key + kGradient, options_.crux, pace);
  job.alltoall = fabric_.Route(job.alltoall_edges, key + kAllToAll, options_.crux, pace);
  if (!job.checkpoint.empty()) job.checkpoint = fabric_.Route(job.checkpoint_edges, key + kCheckpoint, options_.crux, 0.0);
  job.AddExpectedLoad(fabric_, +1);
  ++reroutes_;
}

// The coflows in flight as the window opens, with what they have left.
void Replay::OpenWindow() {
  for (size_t j : running_) {
    ReplayJob& job = jobs_[j];
    const double iterations = job.macros > 0 ? job.MacroIterations(job.macros_done) : 1.0;
    auto in_flight = [&](bool active, CoflowKind kind, const CoflowPlan& plan, double scale) {
      if (!active || plan.empty()) return;
      const double left = fabric_.RemainingBytes(Tag(j, kind)) / (plan.reference_bytes * scale);
      if (left > 0) RecordWindowFlows(j, kind, scale * left);
    };
    in_flight(job.gradient_active, kGradient, job.gradient, iterations);
    in_flight(job.alltoall_active, kAllToAll, job.alltoall, iterations);
    in_flight(job.checkpoint_active, kCheckpoint, job.checkpoint, 1.0);
  }
}

void Replay::FinishJob(size_t j) {
  ReplayJob& job = jobs_[j];
  job.finished = true;
  job.end = sim_.Now();
  ++finished_;
  if (job.on_fabric()) job.AddExpectedLoad(fabric_, -1);
  Status st = allocation_.Release(job.trace->job_id);
  assert(st.ok());
  (void)st;
  running_.erase(std::find(running_.begin(), running_.end(), j));
  RequestPass();
}

}  // namespace

Result<ReplayResult> ReplayJobTrace(const Topology& topology, const RoutingTable& routes, const ClusterLayout& layout,
                                    std::span<const TraceJob> jobs, const ReplayOptions& options) {
  if (Status st = ValidateReplayOptions(options, topology, layout); !st.ok()) return st.error();
  for (size_t i = 1; i < jobs.size(); ++i) {
    if (jobs[i].submit_s < jobs[i - 1].submit_s) {
      return Error{"job '" + jobs[i].job_id + "': jobs must be sorted by submit_s (as ReadJobTrace returns them)"};
    }
  }
  for (const TraceJob& t : jobs) {
    if (!(t.submit_s >= 0 && t.submit_s < kMaxReplayDays * 86400)) {
      return Error{"job '" + t.job_id + "': submit_s must be in [0, " + std::to_string(kMaxReplayDays) + " days)"};
    }
  }
  Replay replay(topology, routes, layout, jobs, options);
  return replay.Run();
}

}  // namespace aifabric
