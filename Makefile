# Throbber: `make demo` builds and renders the demo; `make test` runs all tests.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN = .build/release/throbber
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: deps build demo test test-fast lint format install uninstall bench bench-gif bench-resize bench-lottie bench-webp bench-apng bench-lossy bench-screencast bench-reencode bench-video bench-vector bench-startup bench-speed clean man docs fuzz sanitize

deps:
	scripts/install-deps

# The Swift runtime is linked in (31 MB instead of 10 MB): `throbber
# --version` then takes about 4.6 ms instead of 6.8, and start-up is most of
# a small loader's encode (docs/tuning.md, "Start-up"). The C libraries
# are linked too, except FFmpeg's libavformat and libavcodec, which the first
# video read opens (docs/architecture.md, "Video").
build: deps
	$(SWIFT) build -c release --product throbber --static-swift-stdlib

demo: build
	scripts/demo

# The docs reuse the test build: every public symbol has a doc comment, the
# getting-started samples compile as a user's code, and docc converts the
# reference with every link resolved (about 20 s, 6 of them the checks).
test: deps lint
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/make-docs
	$(SWIFT) test --skip-build --parallel --num-workers 2

# The edit loop: the library and CLI tests without the suites tagged
# `.slow` (Tests/TestSupport/Harness/Tags.swift; scripts/slow-suites reads
# the tags, as this toolchain's `swift test` cannot filter by them), which
# 'make test' still runs: renderer and browser checks, conformance corpora
# and peer comparisons, per-preset and per-format matrices, many-encode runs
# (--max-bytes, lossy LZW, check manifests, the APNG writer's exact
# decodes), and memory, bomb and limit runs. A suite tagged by its time in
# a serial run (swift test --no-parallel --experimental-event-stream-output):
# the rest runs in under 2 minutes on 2 cores (107 s).
test-fast:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 2 --skip "$$(scripts/slow-suites)"

# The API reference, built by the toolchain's docc from symbol graphs, in
# .build/docs/ThrobberKit.doccarchive; fails on an undocumented public
# symbol or a link docc cannot resolve.
docs: deps
	SWIFT=$(SWIFT) scripts/make-docs

# The house style is .swift-format (4-space indent, 120 columns); the
# toolchain's swift-format checks it as part of 'make test', and
# scripts/check-layout the length of files (300 lines) and functions (60).
SWIFT_FORMAT ?= swift-format
lint:
	$(SWIFT_FORMAT) lint --strict --recursive Package.swift Sources Tests
	scripts/check-layout

format:
	$(SWIFT_FORMAT) format --in-place --recursive Package.swift Sources Tests

# The benchmark suites against their peers, then docs/benchmarks.md from
# their results (Benchmarks/run-all, Benchmarks/report.py): `make bench` runs
# every suite in full (well over an hour); `make bench QUICK=1` runs each one
# short (one timed run, one or two corpora, smaller curves) and ends with the
# headline ratios against their bounds (ok/OVER).
# THROBBER=path measures that binary and skips the build; BENCH_DIR (default
# /tmp/throbber-bench) keeps the corpora between runs.
BENCH_BUILD = $(if $(THROBBER),,build)
bench: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-all $(if $(QUICK),--quick)

# One suite alone, its results in $$BENCH_DIR (docs/benchmarks.md unchanged).
# GIF against ImageMagick, gifsicle, ffmpeg and Pillow ("GIF").
bench-gif: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run

# --width against ffmpeg and pngquant + gifsicle, and the resampling check
# ("Resize").
bench-resize: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-resize

# Lottie input against rlottie-python, python-lottie and pyrlottie
# ("Lottie"); the peers are installed from PyPI into $$BENCH_DIR/venv on
# first use.
bench-lottie: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-lottie

# Animated WebP against img2webp, gif2webp, ffmpeg and Pillow ("Animated
# WebP").
bench-webp: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-webp

# Lossless and palette APNG against ffmpeg and apngasm ("APNG").
bench-apng: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-all --only apng --no-report

# --lossy and --max-bytes against gifsicle, the gifski recipe (pngquant per
# frame + gifsicle) and ffmpeg palettegen, and --max-bytes at each peer
# file's size, with the plots in docs/plots ("Lossy LZW and byte budgets").
bench-lossy: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-lossy --plots docs/plots

bench-screencast: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-screencast

# Every fixture GIF re-encoded against gifsicle -O3 ("Re-encoding GIFs").
bench-reencode: $(BENCH_BUILD)
	Benchmarks/run-reencode

# Lottie and SVG bytes of every preset beside its GIF, APNG and WebP
# ("Vector export").
bench-vector: $(BENCH_BUILD)
	Benchmarks/vector_sizes.py

# Video input against ffmpeg's one-command GIF recipe on four clips, and
# (VIDEO_LONG=1) memory and trim cost on a 10-minute 1080p clip ("Video
# input").
bench-video: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-video $(if $(VIDEO_LONG),--long)

# Start-up of small runs, by hyperfine ("Start-up").
bench-startup: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-all --only startup --no-report

# Each default encode's wall time beside its peer's (ffmpeg, apngasm,
# img2webp, rlottie-python; --max-bytes beside the default), medians of 5
# interleaved rounds against their bounds ("Speed against the peers"; about
# half an hour on an idle 2-core machine). SPEED_ARGS narrows it, e.g.
# SPEED_ARGS="--only gif,webp --corpus testsrc2-320x240 --repeat 1".
bench-speed: $(BENCH_BUILD)
	scripts/install-deps --bench
	Benchmarks/run-speed $(SPEED_ARGS)

# libFuzzer targets for the GIF, PNG/CgBI/APNG and JPEG readers, the config
# and the manifest reader, FUZZ_SECONDS each (default 60), under ASan
# (Fuzz/, scripts/fuzz; docs/reliability.md).
FUZZ_SECONDS ?= 60
fuzz: deps
	scripts/fuzz $(FUZZ_SECONDS)

# The library tests (everything but the CLI suites, which run the binary)
# under AddressSanitizer, then ThreadSanitizer, each in its own build folder.
SANITIZE_TESTS ?= CoreTests|CodecTests|EncodeTests|SceneTests|CheckTests
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan --filter '$(SANITIZE_TESTS)'
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	SWIFT_BACKTRACE=enable=no TSAN_OPTIONS=suppressions=$(CURDIR)/scripts/tsan-suppressions.txt \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan --filter '$(SANITIZE_TESTS)'

# man/throbber.1 is generated from the option declarations ('throbber _man')
# and committed, so that 'make install' and 'man' need no build; a test
# fails when it is out of date.
man: deps
	$(SWIFT) build --product throbber
	.build/debug/throbber _man > man/throbber.1.tmp
	mv man/throbber.1.tmp man/throbber.1

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/throbber
	install -m 644 man/throbber.1 $(DESTDIR)$(PREFIX)/share/man/man1/throbber.1
	$(BIN) completions bash > $(BASHDIR)/throbber
	$(BIN) completions zsh > $(ZSHDIR)/_throbber
	$(BIN) completions fish > $(FISHDIR)/throbber.fish
	chmod 644 $(BASHDIR)/throbber $(ZSHDIR)/_throbber $(FISHDIR)/throbber.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/throbber $(DESTDIR)$(PREFIX)/share/man/man1/throbber.1
	rm -f $(BASHDIR)/throbber $(ZSHDIR)/_throbber $(FISHDIR)/throbber.fish

clean:
	rm -rf .build demo-out
