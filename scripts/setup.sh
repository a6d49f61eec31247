#!/usr/bin/env bash
# scripts/setup.sh [run|test]: installs what aifabric needs on Debian 12,
# only what is missing, so on a warm machine it checks and returns.
#   run   what `make run` needs: the compiler, CMake and the libraries the
#         aifabric binary builds against (OpenMPI among them, with its
#         mpirun: `mpirun -np N aifabric plan`); Node.js and npm, to fetch the
#         ECharts that report.html bundles at build time; Graphviz, for the
#         README's `dot -Tsvg`.
#   test  (the default) run's set, plus what the tests and benchmarks need:
#         GoogleTest, Google Benchmark, promtool (prometheus), Chromium and
#         playwright-core (report.html in a headless browser), OpenSM under
#         ibsim (tests/opensm_run_test.cc), GNU time (the benchmarks'
#         whole-process figures: bench/telemetry_bench.sh), clang and
#         libFuzzer (the sanitizer stage, scripts/ci_sanitizer_stage.sh, and
#         scripts/fuzz.sh), lld (links the test and fuzz binaries faster;
#         CMake uses it when it is there: cmake/linker.cmake).
# Debian packages come from apt (`apt-get update` runs only when one is
# missing); web/report's npm packages at the versions its package-lock.json
# pins, which run on Debian's Node 18.
set -euo pipefail

die() { echo "setup: $*" >&2; exit 1; }
usage() { echo "usage: scripts/setup.sh [run|test]   (default: test)" >&2; exit 2; }
[ $# -le 1 ] || usage
mode="${1:-test}"
case "$mode" in run|test) ;; *) usage ;; esac

RUN_PACKAGES=(
  build-essential cmake pkg-config
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev libfmt-dev
  libprotobuf-dev protobuf-compiler libcpp-httplib-dev libsqlite3-dev
  libopenmpi-dev openmpi-bin
  graphviz
)
TEST_PACKAGES=(
  libgtest-dev libgmock-dev libbenchmark-dev
  prometheus chromium
  opensm ibsim-utils infiniband-diags
  time
  clang libfuzzer-14-dev
  lld
)
packages=("${RUN_PACKAGES[@]}")
if [ "$mode" = test ]; then packages+=("${TEST_PACKAGES[@]}"); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm are found by command, not by package, so a Node installed
# some other way (NodeSource, nvm, ...) is used as it is: Debian's nodejs and
# npm are installed only when the command is missing, never over another Node.
if ! command -v node >/dev/null; then
  missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
elif ! command -v npm >/dev/null; then
  node_path="$(readlink -f "$(command -v node)")"
  if [ "$(dpkg-query -S "$node_path" 2>/dev/null | cut -d: -f1)" = nodejs ]; then
    missing+=(npm)  # Debian's nodejs, without Debian's npm beside it
  else
    die "node ($node_path) has no npm beside it; install the npm that goes with that Node"
  fi
fi

if [ ${#missing[@]} -ne 0 ]; then
  command -v apt-get >/dev/null ||
    die "missing ${missing[*]}, and there is no apt-get to install them with (this script installs Debian 12 packages)"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null ||
      die "missing ${missing[*]}; installing them needs root: run this as root, or install and configure sudo"
    sudo=(sudo)
  fi
  echo "setup ($mode): installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' ||
  die "node $(node --version) at $(command -v node) is too old: web/report's npm packages need Node 18 or newer"

# web/report's npm packages: ECharts (report.html bundles it at build time)
# in both modes, the dev dependencies (playwright-core, for the browser
# tests) in test mode. They are complete when every package the lock pins
# for the mode sits in node_modules at its pinned version.
report_dir="$(cd "$(dirname "$0")/../web/report" && pwd)"
npm_complete() {  # npm_complete run|test
  (cd "$report_dir" && node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    for (const [dir, pkg] of Object.entries(lock.packages)) {
      if (dir === "" || pkg.optional || (pkg.dev && process.argv[1] !== "test")) continue;
      let version = null;
      try { version = JSON.parse(fs.readFileSync(dir + "/package.json", "utf8")).version; } catch {}
      if (version !== pkg.version) process.exit(1);
    }' "$1")
}
if ! npm_complete "$mode"; then
  npm_flags=(--no-audit --no-fund --no-update-notifier)
  if npm_complete run; then
    # Test mode after run mode: add the dev dependencies, leaving ECharts
    # as it is (a fresh copy would make the build re-embed it).
    echo "setup ($mode): npm install in web/report (dev dependencies)"
    (cd "$report_dir" && npm install --no-save "${npm_flags[@]}")
  elif [ "$mode" = run ]; then
    echo "setup ($mode): npm ci --omit=dev in web/report"
    (cd "$report_dir" && npm ci --omit=dev "${npm_flags[@]}")
  else
    echo "setup ($mode): npm ci in web/report"
    (cd "$report_dir" && npm ci "${npm_flags[@]}")
  fi
  npm_complete "$mode" || die "web/report/node_modules does not match package-lock.json after npm installed it"
fi
