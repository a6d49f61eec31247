#!/usr/bin/env bash
# Installs the Debian packages aifabric needs to build and test, only those
# that are missing. Idempotent: on a warm machine it checks and returns.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libprotobuf-dev protobuf-compiler
  opensm ibsim-utils infiniband-diags
  libcpp-httplib-dev prometheus chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# report.html bundles ECharts, and its browser test uses playwright-core,
# both from npm at the versions web/report/package-lock.json pins.
report_dir="$(dirname "$0")/../web/report"
if [ ! -d "$report_dir/node_modules" ]; then
  echo "setup: npm ci in web/report"
  (cd "$report_dir" && npm ci --no-audit --no-fund)
fi
