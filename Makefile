# The front door. `make demo` and `make test` work on a fresh Debian 12 machine (root or sudo).
BUILD_DIR      ?= build
SANITIZE_DIR   ?= build-sanitize
BENCH_DIR      ?= build-bench
BUILD_TYPE     ?= RelWithDebInfo
BOREAS_WERROR  ?= OFF
PREFIX         ?= /usr/local
JOBS           ?= $(shell nproc)

CMAKE_FLAGS = -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DBOREAS_WERROR=$(BOREAS_WERROR)

.PHONY: deps build test demo bench sanitize format clean install deb

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD_DIR) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Runs every test; ctest's summary is the last thing printed.
test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 600

# The main job: the digital twin on bundled real data (see README).
demo: build
	@scripts/demo.sh $(BUILD_DIR)

# Unit tests under AddressSanitizer + UndefinedBehaviorSanitizer.
sanitize: deps
	@cmake -S . -B $(SANITIZE_DIR) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=Debug -DBOREAS_SANITIZE=ON >/dev/null
	@cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@cd $(SANITIZE_DIR) && ctest --output-on-failure -j $(JOBS) -L unit --timeout 900

bench: deps
	@cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DBOREAS_BENCH=ON >/dev/null
	@cmake --build $(BENCH_DIR) -j $(JOBS)
	@scripts/bench.sh $(BENCH_DIR)

# bin/boreas, the man page, completions and the systemd unit under $(PREFIX) (DESTDIR honoured).
install: build
	@DESTDIR=$(DESTDIR) cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# The Debian package (CPack): $(BUILD_DIR)/boreas_VERSION_ARCH.deb; docs/live.md, "Installing".
deb: build
	@cd $(BUILD_DIR) && cpack -G DEB

format:
	@find src tests bench fuzz -name '*.h' -o -name '*.cpp' 2>/dev/null | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR) $(SANITIZE_DIR) $(BENCH_DIR)
