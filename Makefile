# The two commands: `make run` and `make test`. Both install what is missing
# (scripts/setup.sh), build Release into build/, then run or test.
BUILD_DIR ?= build
JOBS ?= 2
SCENARIO ?= examples/quickstart.yaml

.PHONY: setup build run test bench clean

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release > $(BUILD_DIR).configure.log 2>&1 || (cat $(BUILD_DIR).configure.log; exit 1)
	@cmake --build $(BUILD_DIR) -j$(JOBS)

run: build
	@$(BUILD_DIR)/src/cli/aifabric run $(SCENARIO)

test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)

bench: build
	@$(BUILD_DIR)/bench/event_queue_bench
	@$(BUILD_DIR)/bench/permutation_bench

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
