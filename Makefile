# The README's commands. Each installs missing Debian packages first (scripts/install-deps.sh,
# quiet and fast when all is present), then configures and builds into build/.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build test demo bench docs clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@if [ ! -f $(BUILD)/build.ninja ]; then \
	  cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null; fi

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Only the programs the demo runs, not the tests: a few minutes on a fresh machine.
demo: configure
	@echo "demo: building the CLI, the examples and the GPU bench (not the tests)"
	@cmake --build $(BUILD) -j $(JOBS) --target demo_programs
	@bash scripts/demo.sh $(BUILD)

bench: configure
	@bash scripts/bench.sh $(BUILD)

docs: build
	@bash scripts/gen-docs.sh $(BUILD)

clean:
	rm -rf $(BUILD)
