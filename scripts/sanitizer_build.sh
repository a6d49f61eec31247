#!/usr/bin/env bash
# scripts/sanitizer_build.sh DIR [TARGET...]: configures DIR as the
# sanitizer build (clang++, -O1, AddressSanitizer and UBSan with
# -fno-sanitize-recover=all, so any report aborts; the libFuzzer targets of
# fuzz/ too, AIFABRIC_FUZZ=ON; unity batches, AIFABRIC_UNITY=ON; precompiled
# headers, AIFABRIC_PCH=ON, unless $CMAKE_FLAGS names a compiler launcher
# such as ccache, which does not cache compiles that use one) and builds
# TARGET... (everything when none), with -j$JOBS (default 2). Extra
# configure flags come from $CMAKE_FLAGS and win over these (e.g.
# -DCMAKE_CXX_COMPILER_LAUNCHER=ccache, -DAIFABRIC_UNITY=OFF).
# scripts/ci_sanitizer_stage.sh and scripts/fuzz.sh build through this;
# docs/reliability.md says why these flags.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/sanitizer_build.sh DIR [TARGET...]" >&2; exit 2; }
cd "$(dirname "$0")/.."
dir="$1"
shift
pch=ON
[[ "${CMAKE_FLAGS:-}" != *COMPILER_LAUNCHER* ]] || pch=OFF
# shellcheck disable=SC2086  # CMAKE_FLAGS is a list of flags
cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Sanitize \
  "-DCMAKE_CXX_FLAGS=-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined -DAIFABRIC_FUZZ=ON -DAIFABRIC_UNITY=ON -DAIFABRIC_PCH="$pch" \
  ${CMAKE_FLAGS:-} \
  > "$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$dir" -j"${JOBS:-2}" "${targets[@]}"
