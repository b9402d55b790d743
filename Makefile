# Throbber: `make demo` builds and renders the demo; `make test` runs all tests.
PREFIX ?= /usr/local
SWIFT ?= swift
BIN = .build/release/throbber
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: deps build demo test install uninstall bench clean man

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build -c release --product throbber

demo: build
	scripts/demo

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 2

bench: build
	scripts/install-deps --bench
	Benchmarks/run

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
