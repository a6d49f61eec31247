#include "server/attach_request.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "core/text_file.h"
#include "observe/observed_topology.h"
#include "report/output_folder.h"
#include "observe/prometheus_client.h"
#include "scenario/yaml_reader.h"
#include "scenario/yaml_text.h"
#include "server/observe_task.h"
#include "server/sha256.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// The absolute path of the file `key` names, or "" (the error recorded).
std::string FileOf(const MapReader& m, const std::string& key, const std::string& base_dir) {
  const std::string given = m.String(key, "");
  if (given.empty()) {
    m.FailAt(key, "expected a file path");
    return "";
  }
  fs::path p(given);
  if (p.is_relative()) p = fs::path(base_dir.empty() ? "." : base_dir) / p;
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec).lexically_normal();
  if (ec) abs = p.lexically_normal();
  if (!fs::is_regular_file(abs, ec)) {
    m.FailAt(key, "file not found: " + abs.string());
    return "";
  }
  return abs.string();
}

// A section holding a file or its text: {file: PATH} or {text: CONTENT}.
struct FileOrText {
  std::string path;  // "" when given as text
  std::string text;
};

std::optional<FileOrText> ReadFileOrText(const MapReader& m, const std::string& base_dir) {
  if (m.Has("file") == m.Has("text")) {
    m.Fail("file", "expected one of file (a path) or text (the file's content)");
    return std::nullopt;
  }
  FileOrText out;
  if (m.Has("text")) {
    out.text = m.String("text", "");
    return out;
  }
  out.path = FileOf(m, "file", base_dir);
  if (out.path.empty()) return std::nullopt;
  Result<std::string> text = ReadTextFile(out.path);
  if (!text.ok()) {
    m.FailAt("file", text.error().message);
    return std::nullopt;
  }
  out.text = std::move(text).value();
  return out;
}

// The topology of a file the reader reads by path: text given inline goes
// through a private temporary file, named "topology.text" in messages.
Result<Topology> ReadTopology(const FileOrText& source, const std::string& format) {
  if (!source.path.empty()) return ReadObservedTopology(source.path, format);
  std::string path = (fs::temp_directory_path() / "aifabric-attach-XXXXXX").string();
  const int fd = mkstemp(path.data());
  if (fd < 0) return Error{"topology.text: cannot make a temporary file to read it from"};
  close(fd);
  Status written = WriteFileAtomically(path, source.text);
  Result<Topology> topology = written.ok() ? ReadObservedTopology(path, format) : Result<Topology>(written.error());
  std::error_code ec;
  fs::remove(path, ec);
  if (topology.ok()) return topology;
  std::string message = topology.error().message;
  for (size_t at = message.find(path); at != std::string::npos; at = message.find(path)) {
    message.replace(at, path.size(), "topology.text");
  }
  return Error{message};
}

// The observe command's readers name its options (--prometheus URL: ...);
// here the place is a field, so the option's name goes.
std::string WithoutOption(std::string message, const std::string& option) {
  if (message.rfind(option, 0) == 0) message.erase(0, option.size());
  return message;
}

}  // namespace

Result<AttachSpec> ReadAttachSpec(const std::string& text, const std::string& origin, const std::string& base_dir) {
  try {
    Diagnostics d(origin, {});
    Result<YAML::Node> parsed = ParseYamlText(text, d);
    if (!parsed) return parsed.error();
    const YAML::Node root = *parsed;
    if (!root.IsMap()) {
      return Error{origin + ": expected a map (prometheus, topology, and optionally name, exporter, interval, "
                            "window, timeout, scenario)"};
    }
    const MapReader top(d, root, "");
    top.AllowOnly({"name", "prometheus", "exporter", "topology", "interval", "window", "timeout", "scenario"});
    AttachSpec spec;
    spec.name = top.String("name", fs::path(origin).stem().string());
    if (spec.name.empty()) top.FailAt("name", "expected a name that is not empty");
    if (!top.Has("prometheus")) top.Fail("prometheus", "required, missing (http://HOST:PORT of the Prometheus server)");
    spec.prometheus = top.String("prometheus", "");
    const std::string exporter = top.String("exporter", "aifabric");
    spec.interval = top.TimeValue("interval", spec.interval);
    spec.window = top.TimeValue("window", spec.window);
    spec.timeout = top.TimeValue("timeout", spec.timeout);
    if (!d.ok()) return d.error();
    // An attachment asks its Prometheus at most once a second: a pass is a
    // handful of queries, and counters scraped every 15 s or so (Prometheus's
    // default scrape_interval) change no faster.
    if (spec.interval < Time::FromSeconds(1)) top.FailAt("interval", "expected at least 1s");
    if (spec.window <= Time::Zero()) top.FailAt("window", "expected a duration > 0");
    if (spec.timeout < Time::FromMs(1) || spec.timeout > spec.interval) {
      top.FailAt("timeout", "expected at least 1ms and at most the interval");
    }
    if (!d.ok()) return d.error();
    Result<const ExporterSchema*> schema = FindExporter(exporter);
    if (!schema.ok()) top.FailAt("exporter", schema.error().message);
    else spec.exporter = *schema;
    PrometheusSource source;
    source.url = spec.prometheus;
    if (Result<PrometheusFetch> fetch = HttpFetch(source); !fetch.ok()) {
      top.FailAt("prometheus", WithoutOption(fetch.error().message, "--prometheus "));
    }
    if (!d.ok()) return d.error();

    if (!top.Has("topology")) top.Fail("topology", "required, missing ({format: hpcc|lingjun|ibnetdiscover, file: PATH})");
    const MapReader topology = top.Map("topology");
    topology.AllowOnly({"format", "file", "text"});
    const std::string format = topology.String("format", "hpcc");
    if (format != "hpcc" && format != "lingjun" && format != "ibnetdiscover") {
      topology.FailAt("format", "expected hpcc, lingjun or ibnetdiscover, got '" + format + "'");
    }
    std::optional<FileOrText> topology_source = ReadFileOrText(topology, base_dir);
    if (!d.ok()) return d.error();
    Result<Topology> read = ReadTopology(*topology_source, format);
    if (!read.ok()) {
      topology.FailAt(topology_source->path.empty() ? "text" : "file",
                      WithoutOption(read.error().message, "--topology "));
      return d.error();
    }
    spec.topology = std::make_shared<const Topology>(std::move(read).value());

    if (top.Has("scenario")) {
      const MapReader scenario = top.Map("scenario");
      scenario.AllowOnly({"file", "text"});
      std::optional<FileOrText> template_source = ReadFileOrText(scenario, base_dir);
      if (!d.ok()) return d.error();
      spec.scenario_text = template_source->text;
      const bool inline_text = template_source->path.empty();
      spec.scenario_origin = inline_text ? "scenario.yaml" : fs::path(template_source->path).filename().string();
      std::error_code ec;
      const fs::path base = inline_text ? fs::path(base_dir.empty() ? "." : base_dir)
                                        : fs::path(template_source->path).parent_path();
      spec.scenario_base_dir = fs::absolute(base, ec).lexically_normal().string();
    }
    return spec;
  } catch (const std::exception& e) {
    return Error{origin + ": internal error while reading the attachment: " + e.what()};
  }
}

Result<ParsedRun> ParseAttachRequest(const std::string& text, const std::string& origin, const std::string& base_dir) {
  Result<AttachSpec> spec = ReadAttachSpec(text, origin, base_dir);
  if (!spec.ok()) return spec.error();
  ParsedRun run;
  run.kind = "observe";
  run.input_sha256 = Sha256Hex(text);
  run.name = spec->name;
  run.task = std::make_unique<ObserveTask>(std::move(spec).value(), text);
  return run;
}

}  // namespace aifabric
