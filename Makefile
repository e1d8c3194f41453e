# agentcron: cron for AI agents.  `make` builds bin/, `make check` runs every
# test, `make check-asan` runs them again built with AddressSanitizer and
# UBSan, `make demo` shows the whole path, `make bench` prints the
# performance figures.  Building first runs ./deps.sh: `make` and `make
# install` check what the build needs and say what is missing; check,
# check-asan, demo, bench and fuzz also need the test list, which deps.sh
# installs when run as root.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# Where bash-completion and zsh look for completions under PREFIX (for
# PREFIX=~/.local, bash-completion's own directory for a user).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
# A POSIX sh (dash, Debian's /bin/sh) hands `PREFIX=~/.local` to make with
# its tilde unexpanded, as bash does not: expand a leading ~ here, so the
# files, DESTDIR and the PATH note all get the real directory.
home_path = $(if $(filter ~ ~/%,$(1)),$(HOME)$(patsubst ~%,%,$(1)),$(1))
override PREFIX := $(call home_path,$(PREFIX))
override BINDIR := $(call home_path,$(BINDIR))
override MANDIR := $(call home_path,$(MANDIR))
override BASHCOMPDIR := $(call home_path,$(BASHCOMPDIR))
override ZSHCOMPDIR := $(call home_path,$(ZSHCOMPDIR))
CC ?= cc
CFLAGS ?= -g -O2
override CFLAGS := -std=c17 -D_POSIX_C_SOURCE=200809L -Wall -Wextra $(CFLAGS)
# Objects and tools go to $(B); programs to $(BIN).  The sanitizer build
# reuses every rule with B=build/asan.
B ?= build/default
BIN ?= bin
PKGS = sqlite3 libpq libcurl libcjson libmicrohttpd libcrypto
# The stores the suite runs against, one pass each (tests/run).
STORES = sqlite postgres
# Each pkg-config answer is asked for once, when first needed (once
# deps.sh has run), not again for every recipe that names it: once NAME
# CMD is CMD's output, kept in the simple variable NAME.
once = $(if $(filter undefined,$(origin $1)),$(eval $1 := $$(shell $2)))$($1)
DEP_CFLAGS = $(call once,PC_CFLAGS,pkg-config --cflags $(PKGS))
# Every program links cJSON and libm; LDLIBS_name adds its own: the store's
# library for the programs that open the store, libcurl for llm-call and
# task-deliver alone.
# libpq is not linked but loaded when a PostgreSQL store is opened
# (common/pq_lib.h), and libcrypto when a hash is first needed
# (common/hmac.c): their headers are needed, their libraries only then.
# Test tools and unit tests get everything.
LDFLAGS ?= -Wl,--as-needed
LDLIBS = $(call once,CJSON_LIBS,pkg-config --libs libcjson) -lm
# SQLite goes into each program from the archive libsqlite3-dev ships: a
# program starts about 0.5 ms sooner than with the shared library, whose
# loading and symbol binding are most of what it costs to start.
# SQLITE_LINK=shared (the default where there is no archive) links the
# shared library, which follows the system's updates of it without a rebuild.
SQLITE_ARCHIVE = $(wildcard $(call once,SQLITE_LIBDIR,pkg-config --variable=libdir sqlite3)/libsqlite3.a)
SQLITE_LINK ?= static
ifeq ($(SQLITE_LINK),static)
SQLITE_LIBS = $(if $(SQLITE_ARCHIVE),$(SQLITE_ARCHIVE) -lm -pthread,$(call once,SQLITE_PC_LIBS,pkg-config --libs sqlite3))
else
SQLITE_LIBS = $(call once,SQLITE_PC_LIBS,pkg-config --libs sqlite3)
endif
# libcrypto (SHA-256 and HMAC, common/hmac.c) is not linked either but
# loaded when a hash is first needed: linked, it cost every start 0.6 ms.
STORE_LIBS = $(SQLITE_LIBS) -ldl
CURL_LIBS = $(call once,CURL_PC_LIBS,pkg-config --libs libcurl)
STORE_PROGS = task-add task-edit task-log task-ls task-mcp task-rm task-run task-show task-status task-tick task-when
$(foreach p,$(STORE_PROGS),$(eval LDLIBS_$(p) = $$(STORE_LIBS)))
LDLIBS_llm-call = $(STORE_LIBS) $(CURL_LIBS)
LDLIBS_task-deliver = $(STORE_LIBS) $(CURL_LIBS)
LDLIBS_task-web = $(STORE_LIBS) $(call once,MHD_LIBS,pkg-config --libs libmicrohttpd)
ALL_LIBS = $(STORE_LIBS) $(CURL_LIBS) $(LDLIBS)

PROGS = $(patsubst cmd/%.c,$(BIN)/%,$(wildcard cmd/*.c))
LIBOBJ = $(patsubst common/%.c,$(B)/common/%.o,$(wildcard common/*.c))
UNITS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/t-*.c))
TOOLS = $(patsubst tests/tools/%.c,$(B)/tools/%,$(wildcard tests/tools/*.c))
PRELOAD = $(patsubst tests/tools/preload/%.c,$(B)/tools/%.so,$(wildcard tests/tools/preload/*.c))
FUZZ = $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
ASAN = -O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all

all: $(PROGS) $(UNITS) $(TOOLS) $(PRELOAD)

DEPS = $(if $(filter check check-asan demo bench fuzz,$(MAKECMDGOALS)),test,build)
deps:
	@./deps.sh $(DEPS)

$(B)/common/%.o: common/%.c common/*.h | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEP_CFLAGS) -c -o $@ $<

$(B)/libagentcron.a: $(LIBOBJ)
	rm -f $@ && ar rcs $@ $^

$(BIN)/%: cmd/%.c cmd/*.h $(B)/libagentcron.a common/*.h | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(DEP_CFLAGS) -Icommon -o $@ $< $(B)/libagentcron.a $(LDLIBS_$*) $(LDLIBS)

$(B)/tests/%: tests/unit/%.c tests/unit/tap.h $(B)/libagentcron.a common/*.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(DEP_CFLAGS) -Icommon -Itests/unit -o $@ $< $(B)/libagentcron.a $(ALL_LIBS)

# The replay includes the fuzz targets' sources.
$(B)/tests/t-fuzz-replay: tests/fuzz/*.c tests/fuzz/fuzz.h

$(B)/tools/%: tests/tools/%.c $(B)/libagentcron.a common/*.h $(wildcard tests/tools/*.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) $(DEP_CFLAGS) -Icommon -o $@ $< $(B)/libagentcron.a $(ALL_LIBS)

# LD_PRELOAD shims, never sanitized: the sanitizer runtime must stay the
# first library of the programs they are loaded into.
$(B)/tools/%.so: tests/tools/preload/%.c
	@mkdir -p $(@D)
	$(CC) -std=c17 -Wall -Wextra -g -O2 -fPIC -shared -o $@ $< -ldl

check: all
	@tests/run $(CURDIR)/$(BIN) $(CURDIR)/$(B) $(STORES)

# The sanitized programs are several times slower: two test files at a
# time a pass, not three.
check-asan: | deps
	@$(MAKE) --no-print-directory B=build/asan BIN=build/asan/bin CFLAGS="$(ASAN)" all
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 JOBS=$${JOBS:-2} \
	  tests/run $(CURDIR)/build/asan/bin $(CURDIR)/build/asan $(STORES)

# BENCH=burst (or any names of tests/bench/*.sh) runs those alone.
bench: all
	@tests/bench/run $(CURDIR)/$(BIN) $(CURDIR)/$(B) $(BENCH)

demo: all
	@tests/demo $(CURDIR)/$(BIN) $(CURDIR)/$(B)

# libFuzzer targets, each for a bounded time (FUZZTIME seconds); FUZZ=NAME
# one alone.  The library is built once for all of them, instrumented.
FUZZTIME ?= 30
FUZZ_CFLAGS = -g -O1 -std=c17 -D_POSIX_C_SOURCE=200809L -Icommon
FUZZ_OBJ = $(patsubst common/%.c,build/fuzz/common/%.o,$(wildcard common/*.c))
build/fuzz/common/%.o: common/%.c common/*.h | deps
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined $(DEP_CFLAGS) -c -o $@ $<

build/fuzz/libagentcron.a: $(FUZZ_OBJ)
	rm -f $@ && ar rcs $@ $^

build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h build/fuzz/libagentcron.a common/*.h
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined $(DEP_CFLAGS) -o $@ $< \
	    build/fuzz/libagentcron.a $(ALL_LIBS)

fuzz: $(patsubst %,build/fuzz/%,$(FUZZ)) | deps
	@for f in $(FUZZ); do \
	  mkdir -p build/fuzz/$$f.corpus; \
	  build/fuzz/$$f -max_total_time=$(FUZZTIME) build/fuzz/$$f.corpus tests/fuzz/corpus/$$f || exit 1; \
	done

# bash-completion loads a command's completion from the file of its name:
# one file, linked under every program's name.
NAMES = $(notdir $(PROGS))
install: $(PROGS)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)/
	install -m 644 man/man1/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/man5/*.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 644 man/man7/*.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 completions/agentcron.bash $(DESTDIR)$(BASHCOMPDIR)/agentcron
	for p in $(NAMES); do ln -sf agentcron $(DESTDIR)$(BASHCOMPDIR)/$$p || exit 1; done
	install -m 644 completions/_agentcron $(DESTDIR)$(ZSHCOMPDIR)/_agentcron
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) [ -n "$(DESTDIR)" ] || printf '%s\n' \
	  "note: $(BINDIR) is not on your PATH; add it in your shell's profile, e.g." \
	  "  echo 'export PATH=\"$(BINDIR):\$$PATH\"' >>~/.profile   (then log in again)" \
	  "  (cron and task-tick --print-cron use absolute paths and need no PATH)" ;; esac

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(NAMES)) \
	  $(addprefix $(DESTDIR)$(MANDIR)/,$(patsubst man/%,%,$(wildcard man/man[157]/*.[157]))) \
	  $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,agentcron $(NAMES)) $(DESTDIR)$(ZSHCOMPDIR)/_agentcron

clean:
	rm -rf build bin/[!.]*

.PHONY: all deps check check-asan bench demo fuzz install uninstall clean
.SECONDARY:
