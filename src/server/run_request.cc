#include "server/run_request.h"

#include <charconv>
#include <filesystem>
#include <set>

#include "core/text_file.h"
#include "plan/design_space.h"
#include "plan/plan_outputs.h"
#include "plan/plan_run.h"
#include "report/collective_request.h"
#include "report/output_folder.h"
#include "report/scenario_outputs.h"
#include "report/schedule_flags.h"
#include "report/schedule_outputs.h"
#include "report/training_memory_text.h"
#include "run/collective_run.h"
#include "run/schedule_run.h"
#include "scenario/scenario_loader.h"
#include "server/attach_request.h"
#include "server/serve_limits.h"
#include "server/sha256.h"
#include "server/topology_json.h"

namespace aifabric {
namespace {

// The query parameters of one request, read once each; what is left
// unread is an error.
class Params {
 public:
  explicit Params(const QueryParams& params) : params_(params) {}
  std::string One(const std::string& key, const std::string& fallback = "") {
    read_.insert(key);
    std::string value = fallback;
    for (const auto& [k, v] : params_) {
      if (k == key) value = v;
    }
    return value;
  }
  std::vector<std::string> All(const std::string& key) {
    read_.insert(key);
    std::vector<std::string> out;
    for (const auto& [k, v] : params_) {
      if (k == key) out.push_back(v);
    }
    return out;
  }
  template <typename Int>
  Result<Int> Integer(const std::string& key, Int fallback) {
    const std::string text = One(key);
    if (text.empty()) return fallback;
    Int value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return Error{"query parameter " + key + ": expected an integer, got '" + text + "'"};
    }
    return value;
  }
  Result<bool> Flag(const std::string& key) {
    const std::string text = One(key);
    if (text.empty() || text == "0" || text == "false") return false;
    if (text == "1" || text == "true") return true;
    return Error{"query parameter " + key + ": expected 1, 0, true or false, got '" + text + "'"};
  }
  // An Error naming the first parameter nothing read.
  Status Unread(const std::string& kind) const {
    for (const auto& [k, v] : params_) {
      if (read_.count(k) == 0) {
        std::string known;
        for (const std::string& r : read_) known += (known.empty() ? "" : ", ") + r;
        return Error{"query parameter " + k + " is not one kind=" + kind + " takes (" + known + ")"};
      }
    }
    return Status::Ok();
  }

 private:
  const QueryParams& params_;
  std::set<std::string> read_;
};

// The name a posted file is read and kept under: a plain file name ending
// in .yaml, .yml or .json.
Result<std::string> InputName(Params& params, const std::string& fallback) {
  return CheckInputName(params.One("name", fallback));
}

}  // namespace

Result<std::string> CheckInputName(const std::string& name) {
  const bool plain = !name.empty() && name.find_first_not_of(
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == std::string::npos && name[0] != '.';
  auto ends = [&](const std::string& ext) {
    return name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (!plain || !(ends(".yaml") || ends(".yml") || ends(".json"))) {
    return Error{"query parameter name: expected a file name ending in .yaml, .yml or .json (letters, digits, . _ -), got '" +
                 name + "'"};
  }
  return name;
}

namespace {

// Writes the inputs as received into OUT/input/.
Status KeepInputs(const std::string& out_dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir + "/input", ec);
  if (ec) return Error{out_dir + "/input: " + ec.message()};
  for (const auto& [name, text] : files) {
    if (Status s = WriteFileAtomically(out_dir + "/input/" + name, text); !s.ok()) return s;
  }
  return Status::Ok();
}

Result<std::string> ReadBack(const std::string& path) {
  if (!std::filesystem::exists(path)) return std::string();
  return ReadTextFile(path);
}

// The overrides of --set, --model and --collectives.
std::vector<std::string> Overrides(Params& params) {
  std::vector<std::string> overrides = params.All("set");
  const std::string model = params.One("model"), collectives = params.One("collectives");
  if (!model.empty()) overrides.push_back("simulation.model=" + model);
  if (!collectives.empty()) overrides.push_back("simulation.collectives=" + collectives);
  return overrides;
}

class ScenarioTask final : public RunTask {
 public:
  ScenarioTask(Scenario scenario, std::string origin, std::string text)
      : scenario_(std::move(scenario)), origin_(std::move(origin)), text_(std::move(text)) {}
  Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& /*feed*/) override {
    if (Status s = KeepInputs(out_dir, {{origin_, text_}}); !s.ok()) return s.error();
    if (Status s = WriteRunTopology(scenario_, out_dir); !s.ok()) return s.error();
    Result<ScenarioOutputs> outputs = RunScenarioOutputs(scenario_, origin_, out_dir, hooks);
    if (!outputs.ok()) return outputs.error();
    return outputs->summary_json;
  }

 private:
  const Scenario scenario_;
  const std::string origin_, text_;
};

class CollectiveTask final : public RunTask {
 public:
  CollectiveTask(Scenario scenario, CollectiveRequest request, CollectiveLabels labels, std::string origin,
                 std::string text)
      : scenario_(std::move(scenario)), request_(request), labels_(std::move(labels)), origin_(std::move(origin)),
        text_(std::move(text)) {}
  Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& /*feed*/) override {
    if (!text_.empty()) {
      if (Status s = KeepInputs(out_dir, {{origin_, text_}}); !s.ok()) return s.error();
    }
    if (Status s = WriteRunTopology(scenario_, out_dir); !s.ok()) return s.error();
    Result<CollectiveSweepResult> sweep = RunCollectiveSweep(scenario_, request_, hooks);
    if (!sweep.ok()) return sweep.error();
    OutputFolder out(out_dir);
    const std::string json = CollectiveSweepFileJson(scenario_, request_, *sweep, labels_).dump(2) + "\n";
    if (Status s = out.Write("collective.txt", FormatCollectiveSweep(scenario_, request_, *sweep, labels_)); !s.ok()) {
      return s.error();
    }
    if (Status s = out.Write("summary.json", json); !s.ok()) return s.error();
    if (Status s = out.Commit(); !s.ok()) return s.error();
    return json;
  }

 private:
  const Scenario scenario_;
  const CollectiveRequest request_;
  const CollectiveLabels labels_;
  const std::string origin_, text_;
};

class ScheduleTask final : public RunTask {
 public:
  ScheduleTask(Scenario scenario, std::vector<PolicySpec> specs, bool comparing, std::string origin, std::string text,
               std::string trace)
      : scenario_(std::move(scenario)), specs_(std::move(specs)), comparing_(comparing), origin_(std::move(origin)),
        text_(std::move(text)), trace_(std::move(trace)) {}
  Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& /*feed*/) override {
    if (Status s = KeepInputs(out_dir, {{origin_, text_}, {"trace.csv", trace_}}); !s.ok()) return s.error();
    const std::string trace_path = out_dir + "/input/trace.csv";
    Result<ScheduleRun> run = RunSchedule(scenario_, trace_path, specs_, nullptr, hooks.cancel);
    if (!run.ok()) return run.error();
    OutputFolder out(out_dir);
    const ScheduleRunInfo info{scenario_.name, "trace.csv", scenario_.seed, ScenarioWarnings(scenario_)};
    Result<std::vector<std::string>> notes = WriteScheduleFiles(*run, info, comparing_, out);
    if (!notes.ok()) return notes.error();
    if (Status s = out.Commit(); !s.ok()) return s.error();
    return ReadBack(out_dir + "/summary.json");
  }

 private:
  const Scenario scenario_;
  const std::vector<PolicySpec> specs_;
  const bool comparing_;
  const std::string origin_, text_, trace_;
};

class PlanTask final : public RunTask {
 public:
  PlanTask(PlanRequirements requirements, Catalog catalog, std::string origin, std::string text)
      : requirements_(std::move(requirements)), catalog_(std::move(catalog)), origin_(std::move(origin)),
        text_(std::move(text)) {}
  Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& /*feed*/) override {
    if (Status s = KeepInputs(out_dir, {{origin_, text_}}); !s.ok()) return s.error();
    PlanRunOptions options;
    options.jobs = 1;
    options.cancel = hooks.cancel;
    if (hooks.on_progress) {
      options.progress = [&hooks](size_t index, size_t count, const DesignOutcome&) {
        hooks.on_progress(RunProgress{static_cast<double>(index + 1) / static_cast<double>(count), Time::Zero(), 0});
      };
    }
    Result<RankedPlan> plan = RunPlan(requirements_, catalog_, options);
    if (!plan.ok()) return plan.error();
    OutputFolder out(out_dir);
    if (Status s = WritePlanFiles(requirements_, *plan, out); !s.ok()) return s.error();
    if (Status s = out.Commit(); !s.ok()) return s.error();
    return ReadBack(out_dir + "/plan.json");
  }

 private:
  const PlanRequirements requirements_;
  const Catalog catalog_;
  const std::string origin_, text_;
};

Result<ParsedRun> ParseRun(Params& params, const RequestBody& body, const ServeLimits& limits) {
  Result<std::string> origin = InputName(params, "scenario.yaml");
  if (!origin.ok()) return origin.error();
  Result<Scenario> scenario = LoadPostedScenario(body.text, *origin, kPostedScenarioBaseDir, Overrides(params), limits);
  if (!scenario.ok()) return scenario.error();
  if (Status s = params.Unread("run"); !s.ok()) return s.error();
  ParsedRun run;
  run.kind = "run";
  run.input_sha256 = Sha256Hex(body.text);
  run.task = ScenarioRunTask(std::move(scenario).value(), *origin, body.text);
  return run;
}

Result<ParsedRun> ParseCollective(Params& params, const RequestBody& body, const ServeLimits& limits) {
  CollectiveFlags flags;
  flags.op = params.One("op", flags.op);
  flags.min_bytes = params.One("b", flags.min_bytes);
  flags.max_bytes = params.One("e", flags.max_bytes);
  flags.step_bytes = params.One("i");
  flags.algorithm = params.One("algo", flags.algorithm);
  flags.protocol = params.One("proto", flags.protocol);
  flags.chunk_bytes = params.One("chunk");
  Result<uint64_t> f = params.Integer<uint64_t>("f", flags.step_factor);
  Result<int> gpus = params.Integer<int>("gpus", 0), channels = params.Integer<int>("channels", 0);
  Result<int> root = params.Integer<int>("root", 0), check = params.Integer<int>("c", 0);
  Result<bool> no_pxn = params.Flag("no_pxn");
  for (const Error* e : {f.ok() ? nullptr : &f.error(), gpus.ok() ? nullptr : &gpus.error(),
                         channels.ok() ? nullptr : &channels.error(), root.ok() ? nullptr : &root.error(),
                         check.ok() ? nullptr : &check.error(), no_pxn.ok() ? nullptr : &no_pxn.error()}) {
    if (e != nullptr) return *e;
  }
  flags.step_factor = *f;
  flags.gpus = *gpus;
  flags.channels = *channels;
  flags.root = *root;
  flags.check = *check;
  flags.no_pxn = *no_pxn;
  Result<CollectiveRequest> request = CollectiveRequestFrom(flags);
  if (!request.ok()) return request.error();
  Result<std::string> origin = InputName(params, "scenario.yaml");
  if (!origin.ok()) return origin.error();
  // No body: the CLI's built-in two-server cluster.
  const bool builtin = body.text.empty();
  const std::string text = builtin ? DefaultCollectiveScenarioText() : body.text;
  const std::string name = builtin ? "default collective cluster" : *origin;
  Result<Scenario> scenario = LoadScenarioText(text, name, kPostedScenarioBaseDir, Overrides(params));
  if (!scenario.ok()) return scenario.error();
  if (Status s = CheckRunLimits(*scenario, ServeLimits{limits.max_body_bytes, limits.max_hosts, Time::Zero(), 0});
      !s.ok()) {
    return s.error();
  }
  if (Status s = CheckCollectiveLimits(*scenario, *request, limits); !s.ok()) return s.error();
  if (Status s = params.Unread("collective"); !s.ok()) return s.error();
  return ParsedRun{"collective", Sha256Hex(text),
                   std::make_unique<CollectiveTask>(std::move(scenario).value(), *request, flags.labels(), *origin,
                                                    body.text), "", ""};
}

Result<ParsedRun> ParseSchedule(Params& params, const RequestBody& body, const ServeLimits& limits) {
  const std::string* scenario_text = nullptr;
  const std::string* trace = nullptr;
  for (const auto& [name, content] : body.parts) {
    if (name == "scenario") scenario_text = &content;
    if (name == "trace") trace = &content;
  }
  if (scenario_text == nullptr || trace == nullptr) {
    return Error{"kind=schedule takes multipart/form-data with the parts scenario (the cluster scenario) and trace "
                 "(the job trace CSV)"};
  }
  Result<std::string> origin = InputName(params, "scenario.yaml");
  if (!origin.ok()) return origin.error();
  Result<Scenario> scenario = LoadScenarioText(*scenario_text, *origin, kPostedScenarioBaseDir, Overrides(params));
  if (!scenario.ok()) return scenario.error();
  if (Status s = CheckRunLimits(*scenario, ServeLimits{limits.max_body_bytes, limits.max_hosts, Time::Zero(), 0});
      !s.ok()) {
    return s.error();
  }
  const std::string compare = params.One("compare");
  Result<std::vector<PolicySpec>> specs = PolicySpecsFromFlags(params.One("policy"), compare, *scenario);
  if (!specs.ok()) return specs.error();
  if (Status s = params.Unread("schedule"); !s.ok()) return s.error();
  return ParsedRun{"schedule", Sha256Hex(*scenario_text),
                   std::make_unique<ScheduleTask>(std::move(scenario).value(), std::move(specs).value(),
                                                  !compare.empty(), *origin, *scenario_text, *trace), "", ""};
}

Result<ParsedRun> ParsePlan(Params& params, const RequestBody& body, const ServeLimits& limits) {
  Result<std::string> origin = InputName(params, "requirements.yaml");
  if (!origin.ok()) return origin.error();
  Result<PlanRequirements> requirements = ReadPlanRequirements(body.text, *origin, kPostedScenarioBaseDir);
  if (!requirements.ok()) return requirements.error();
  Result<Catalog> catalog = PlanCatalog(*requirements);
  if (!catalog.ok()) return catalog.error();
  const size_t designs = EnumerateDesigns(*requirements, *catalog).designs.size();
  if (Status s = CheckPlanLimits(*requirements, designs, limits); !s.ok()) return s.error();
  if (Status s = params.Unread("plan"); !s.ok()) return s.error();
  return ParsedRun{"plan", Sha256Hex(body.text),
                   std::make_unique<PlanTask>(std::move(requirements).value(), std::move(catalog).value(), *origin,
                                              body.text), "", ""};
}

Result<ParsedRun> ParseObserve(Params& params, const RequestBody& body) {
  Result<std::string> origin = InputName(params, "attach.yaml");
  if (!origin.ok()) return origin.error();
  if (Status s = params.Unread("observe"); !s.ok()) return s.error();
  return ParseAttachRequest(body.text, *origin, kPostedScenarioBaseDir);
}

}  // namespace

Result<Scenario> LoadPostedScenario(const std::string& text, const std::string& origin, const std::string& base_dir,
                                    const std::vector<std::string>& overrides, const ServeLimits& limits) {
  Result<Scenario> scenario = LoadScenarioText(text, origin, base_dir, overrides);
  if (!scenario.ok()) return scenario.error();
  Result<std::vector<std::string>> warnings = TrainingMemoryWarnings(*scenario);
  if (!warnings.ok()) return Error{origin + ": " + warnings.error().message};
  if (Status s = CheckRunLimits(*scenario, limits); !s.ok()) return s.error();
  return scenario;
}

std::unique_ptr<RunTask> ScenarioRunTask(Scenario scenario, std::string origin, std::string text) {
  return std::make_unique<ScenarioTask>(std::move(scenario), std::move(origin), std::move(text));
}

Result<ParsedRun> ParseRunRequest(const QueryParams& query, const RequestBody& body, const ServeLimits& limits) {
  Params params(query);
  const std::string kind = params.One("kind");
  if (kind == "run") return ParseRun(params, body, limits);
  if (kind == "collective") return ParseCollective(params, body, limits);
  if (kind == "schedule") return ParseSchedule(params, body, limits);
  if (kind == "plan") return ParsePlan(params, body, limits);
  if (kind == "observe") return ParseObserve(params, body);
  return Error{"query parameter kind: expected run, collective, schedule, plan or observe, got '" + kind + "'"};
}

}  // namespace aifabric
