# perfbot: plain Makefile, pkg-config for every library.
#   make                 build ./perfbot
#   make check           install missing packages, build, run every test
#   make demo            install missing packages, build, print a report
#   make bench           benchmarks (figures, not pass/fail)
#   make soak            instances killed at random over 1,000 reports (root)
#   make install DESTDIR= PREFIX=
#   DEVELOPER=1          strict warnings as errors
#   SANITIZE=address,undefined   (or SANITIZE=thread)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/perfbot
MANDIR = $(PREFIX)/share/man
DOCDIR = $(PREFIX)/share/doc/perfbot
LIBEXECDIR = $(PREFIX)/libexec/perfbot

CC ?= cc
PKG_CONFIG ?= pkg-config
LIBS_PC = libcurl libetpan jansson yaml-0.1 gmime-3.0 sqlite3 gnutls libxml-2.0 \
	libgit2 libpq
TEST_PC = cmocka

CFLAGS ?= -O2 -g
CPPFLAGS += -Iinclude -D_GNU_SOURCE -DPERFBOT_DATADIR='"$(DATADIR)"' \
	-DPERFBOT_BINDIR='"$(BINDIR)"' -DPERFBOT_DOCDIR='"$(DOCDIR)"'
BASE_CFLAGS = -std=c11 -Wall -Wextra -MMD -MP
ifdef DEVELOPER
BASE_CFLAGS += -Wmissing-prototypes -Wstrict-prototypes -Wshadow -Wvla \
	-Wformat=2 -Wno-format-nonliteral -Werror
endif
ifdef SANITIZE
BASE_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif
# SANITIZE=thread: a race stops the program with an exit code no command
# of perfbot uses (not ThreadSanitizer's 66, which is EX_NOINPUT), and
# GLib's own locking, which it cannot see, is suppressed (tests/tsan.supp).
ifneq ($(findstring thread,$(SANITIZE)),)
export TSAN_OPTIONS ?= halt_on_error=1 exitcode=86 \
	suppressions=$(CURDIR)/tests/tsan.supp
export G_SLICE = always-malloc
endif

# Resolved lazily so that 'make check' can install the packages first.
PC_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(LIBS_PC) 2>/dev/null)
PC_LIBS = $(shell $(PKG_CONFIG) --libs $(LIBS_PC) 2>/dev/null) -lm
TEST_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(TEST_PC) 2>/dev/null)
TEST_LIBS = $(shell $(PKG_CONFIG) --libs $(TEST_PC) 2>/dev/null)

ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS) $(PC_CFLAGS)

BUILD = build
LIB_SRC = $(sort $(wildcard src/*/*.c))
LIB_SRC := $(filter-out src/cli/main.c src/cli/front.c,$(LIB_SRC))
LIB_OBJ = $(LIB_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC = $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TOOL_SRC = $(sort $(wildcard tests/tools/*.c))
TOOL_BIN = $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)

.PHONY: all check check-build demo bench soak bench-sim bench-seq bench-bisect install deps unit unit-pg golden \
	integration faults integration-pg faults-pg lint clean fuzz
all: perfbot

deps:
	@sh scripts/install-deps

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# Ruby-identical rounding repeats Ruby's double arithmetic operation by
# operation: no fused multiply-add may merge two of them (every file of
# rbfmt: the digits and their layout).
$(BUILD)/src/util/rbfmt.o $(BUILD)/src/util/rbfmt_dtoa.o: BASE_CFLAGS += -ffp-contract=off

$(BUILD)/libperfbot.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# 'perfbot' runs compare itself and execs perfbot-full for the rest
# (src/cli/front.c): --as-needed keeps the mail stack's libraries out.
perfbot: $(BUILD)/src/cli/front.o $(BUILD)/libperfbot.a perfbot-full
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/src/cli/front.o \
		$(BUILD)/libperfbot.a -Wl,--as-needed $(PC_LIBS)

perfbot-full: $(BUILD)/src/cli/main.o $(BUILD)/libperfbot.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(PC_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(TEST_CFLAGS) $(LDFLAGS) -o $@ $< \
		$(BUILD)/libperfbot.a $(PC_LIBS) $(TEST_LIBS)

$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libperfbot.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< \
		$(BUILD)/libperfbot.a $(PC_LIBS)

# Each step of 'check' is a target of its own so that one can be rerun
# (and shows all its output); 'check' itself shows each step's closing
# lines, what was skipped, the failures, and the log under build/check/ of a
# failed step, and ends with 'check: N passed, M failed, K skipped'. As
# non-root it installs nothing but the build packages and skips what needs
# root (the integration tests' Postfix and Dovecot).
check:
	@mkdir -p $(BUILD)/check
	@sh scripts/install-deps check >$(BUILD)/check/deps.log 2>&1 || \
		{ tail -n 20 $(BUILD)/check/deps.log; \
		  echo "check: installing packages failed; its whole output: $(BUILD)/check/deps.log"; \
		  exit 1; }
	@grep '^perfbot: ' $(BUILD)/check/deps.log || true
	+@MAKE="$(MAKE)" sh tests/check

check-build: perfbot $(UNIT_BIN) $(TOOL_BIN)

unit: $(UNIT_BIN) $(TOOL_BIN)
	@sh tests/run-unit $(UNIT_BIN)

# The state suite again on PostgreSQL (a throw-away server; skipped, and
# said so, when none is installed): the tests whose state is
# tests/unit/teststate.h's.
PG_UNIT = state answer archive authorize bisect_act outbox prune route \
	dispatch bisections lifecmd records remind state_noise track lists \
	gittree cmpview claim_manifest test verify dump duty lease wake backup
PG_UNIT_BIN = $(PG_UNIT:%=$(BUILD)/tests/test_%)
unit-pg: $(PG_UNIT_BIN) $(TOOL_BIN)
	@sh tests/pg/run-unit $(PG_UNIT_BIN)

# the web archive's golden tests make their state with the test tools
golden: perfbot $(TOOL_BIN)
	@sh tests/golden/run

integration: perfbot $(TOOL_BIN)
	@bash tests/integration/run

# Issue 34's soak: three 'perfbot run' loops on one throw-away PostgreSQL,
# SIGKILLed at random, over 1,000 reports and 300 replies; nothing lost or
# doubled (tests/soak/run: SOAK_BACKEND=sqlite, SOAK_REPORTS, SOAK_REPLIES,
# SOAK_INSTANCES, SOAK_TIMEOUT). Minutes long: not part of 'check'
# (tests/integration/t-pg-soak.sh is its short version there).
soak: perfbot $(TOOL_BIN)
	@bash tests/soak/run

# The integration and fault suites again with the state on PostgreSQL (a
# throw-away server for the run, a database per test: tests/pg/suite.sh);
# skipped, and said so, without PostgreSQL (or, for integration, root).
integration-pg: perfbot $(TOOL_BIN)
	@PERFBOT_TEST_STATE=pg bash tests/integration/run

faults-pg: perfbot $(TOOL_BIN)
	@PERFBOT_TEST_STATE=pg bash tests/faults/run

# Scripted SMTP and IMAP servers (tests/faults/): no root needed.
faults: perfbot $(TOOL_BIN)
	@bash tests/faults/run

# Banned functions (doc/style.md, 5): a grep keeps them out of src/; one test
# per source file.
BANNED = \b(strcpy|strcat|sprintf|vsprintf|atoi|atol|gets)\s*\(
lint:
	@bad=$$(grep -lE '$(BANNED)' $(LIB_SRC) src/cli/main.c src/cli/front.c | wc -l); \
	grep -nE '$(BANNED)' $(LIB_SRC) src/cli/main.c src/cli/front.c; \
	echo "lint: $$(($(words $(LIB_SRC)) + 2 - bad)) passed, $$bad failed"; \
	[ $$bad = 0 ] || { echo "perfbot: lint: banned function above" >&2; exit 1; }

# Only the mail on stdout ('make demo > x.mbox && mutt -f x.mbox'): the
# package install and the build talk on stderr; a fixed date.
DEMO_EPOCH = 1739548080
demo:
	@sh scripts/install-deps build >&2
	@$(MAKE) --no-print-directory perfbot >&2
	@SOURCE_DATE_EPOCH=$(DEMO_EPOCH) ./perfbot report \
		fixtures/manifests/hackbench-pipe.yaml --dry-run \
		--config config/perfbot.yaml

bench: deps
	@$(MAKE) --no-print-directory perfbot $(TOOL_BIN)
	@sh scripts/bench

# The simulation of the mailing decisions (issue 10): not a test. 10,000
# trials a cell: issue 32's targets are rates near 1%.
SIM_TRIALS ?= 10000
bench-sim: $(BUILD)/tools/bench-sim
	@$(BUILD)/tools/bench-sim $(SIM_TRIALS)

# The sequential decision against the fixed rule (issue 32); also a part
# of 'bench' (scripts/bench-seq).
SEQ_TRIALS ?= 20000
bench-seq: $(BUILD)/tools/bench-seq
	@BENCH_SEQ_TRIALS=$(SEQ_TRIALS) sh scripts/bench-seq

# The probabilistic bisection beside a fixed-runs one (issue 33); also a
# part of 'bench' (scripts/bench-bisect).
BISECT_TRIALS ?= 2000
bench-bisect: $(BUILD)/tools/bench-bisect
	@BENCH_BISECT_TRIALS=$(BISECT_TRIALS) sh scripts/bench-bisect

# libFuzzer targets for every parser (clang): 'make fuzz FUZZ_SECONDS=60'.
# Not part of 'check'; the corpora start from the fixtures.
FUZZ_SECONDS ?= 30
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_LIB_SRC = $(filter-out src/cli/%,$(LIB_SRC))
fuzz:
	@mkdir -p $(BUILD)/fuzz
	@for f in $(FUZZ_SRC); do \
		n=$$(basename $$f .c); \
		clang -g -O1 -fsanitize=fuzzer,address,undefined $(CPPFLAGS) \
			$(PC_CFLAGS) -o $(BUILD)/fuzz/$$n $$f $(FUZZ_LIB_SRC) \
			$(filter-out -specs=%,$(PC_LIBS)) || exit 1; \
	done
	@sh tests/fuzz/run $(FUZZ_SECONDS)

# The examples of config/contrib/ go to $(DOCDIR)/examples, the systemd
# unit with this install's path in ExecStart; the benchmark farm stand-in
# of the demo and the tests (scripts/fake-lkp-run) to $(LIBEXECDIR).
install: perfbot $(BUILD)/tools/fake-lkp-run
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/templates/web \
		$(DESTDIR)$(DATADIR)/config/hosts
	install -m 755 perfbot $(DESTDIR)$(BINDIR)/perfbot
	install -m 755 perfbot-full $(DESTDIR)$(BINDIR)/perfbot-full
	install -m 644 templates/*.txt $(DESTDIR)$(DATADIR)/templates/
	install -m 644 templates/web/* $(DESTDIR)$(DATADIR)/templates/web/
	install -m 644 config/*.yaml $(DESTDIR)$(DATADIR)/config/
	install -m 644 config/hosts/*.yaml $(DESTDIR)$(DATADIR)/config/hosts/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	# the pages name the installed files, under this PREFIX
	sed 's#/usr/local/#$(PREFIX)/#g' config/man/perfbot.1 \
		>$(DESTDIR)$(MANDIR)/man1/perfbot.1
	for p in perfbot.yaml.5 perfbot-manifest.5; do \
		sed 's#/usr/local/#$(PREFIX)/#g' config/man/$$p \
			>$(DESTDIR)$(MANDIR)/man5/$$p || exit 1; done
	chmod 644 $(DESTDIR)$(MANDIR)/man1/perfbot.1 \
		$(DESTDIR)$(MANDIR)/man5/perfbot.yaml.5 \
		$(DESTDIR)$(MANDIR)/man5/perfbot-manifest.5
	install -d $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(LIBEXECDIR)
	install -m 644 config/contrib/perfbot.cron config/contrib/*.timer \
		config/contrib/perfbot.yaml $(DESTDIR)$(DOCDIR)/examples/
	# the services name the installed binary and examples
	for u in perfbot perfbot-loop perfbot-web perfbot-fetch perfbot-backup; do \
		sed -e 's#/usr/local/bin/perfbot #$(BINDIR)/perfbot #' \
			-e 's#/usr/local/share/doc/perfbot/#$(DOCDIR)/#g' \
			-e 's#after .make install PREFIX=/usr/local.#as installed#' \
			config/contrib/$$u.service \
			>$(DESTDIR)$(DOCDIR)/examples/$$u.service || exit 1; \
		chmod 644 $(DESTDIR)$(DOCDIR)/examples/$$u.service; done
	install -d $(DESTDIR)$(DOCDIR)/examples/sample/base \
		$(DESTDIR)$(DOCDIR)/examples/sample/head
	install -m 644 config/contrib/sample/manifest.yaml \
		$(DESTDIR)$(DOCDIR)/examples/sample/
	install -m 644 config/contrib/sample/base/* $(DESTDIR)$(DOCDIR)/examples/sample/base/
	install -m 644 config/contrib/sample/head/* $(DESTDIR)$(DOCDIR)/examples/sample/head/
	install -m 755 $(BUILD)/tools/fake-lkp-run $(DESTDIR)$(LIBEXECDIR)/fake-lkp-run

clean:
	rm -rf $(BUILD) perfbot perfbot-full

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/cli/main.d $(BUILD)/src/cli/front.d $(UNIT_BIN:=.d) $(TOOL_BIN:=.d)
