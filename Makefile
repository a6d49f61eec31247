# The two commands: `make run` and `make test`. Both install what is missing
# (scripts/setup.sh), build Release into build/, then run or test.
#   run    installs what running needs, builds only the aifabric binary
#          (tests off), runs examples/quickstart.yaml
#   test   installs the test tools too, builds everything, runs ctest
# Both use one build folder: switching between them reconfigures it and
# rebuilds none of the binary's objects.
BUILD_DIR ?= build
JOBS ?= 2
SCENARIO ?= examples/quickstart.yaml
# Extra cmake configure flags, e.g. CMAKE_FLAGS=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache
CMAKE_FLAGS ?=

.PHONY: setup build run test bench clean

# $(call configure,ON|OFF): configure BUILD_DIR with the tests on or off,
# printing cmake's log only when it fails.
configure = cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DAIFABRIC_TESTS=$(1) $(CMAKE_FLAGS) \
  > $(BUILD_DIR).configure.log 2>&1 || (cat $(BUILD_DIR).configure.log; exit 1)

setup:
	@bash scripts/setup.sh test

run:
	@bash scripts/setup.sh run
	@$(call configure,OFF)
	@cmake --build $(BUILD_DIR) -j$(JOBS) --target aifabric
	@$(BUILD_DIR)/src/cli/aifabric run $(SCENARIO)

build: setup
	@$(call configure,ON)
	@cmake --build $(BUILD_DIR) -j$(JOBS)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

bench: build
	@$(BUILD_DIR)/bench/event_queue_bench
	@$(BUILD_DIR)/bench/permutation_bench

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
