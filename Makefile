# wtcc - the Work-Time C compiler.
#
#   make          build bin/wtcc, bin/wtc-calibrate and the runtimes (installs missing
#                 system packages first: mpich, libmpich-dev, flex, bison): one MPI
#                 runtime for $(MPICC) and one for every other MPI found
#                 among MPI_OTHERS (mpicc.mpich mpicc.openmpi smpicc: SimGrid's SMPI)
#   make check-openmpi  the samples with Open MPI (fetched into build/ if missing)
#   make demo     build, then run a sample in both modes and its predictor
#   make check    run the whole test suite (installs librsvg2-bin's rsvg-convert, for the
#                 plot test); the last line is "N passed, N failed"
#   make install PREFIX=/usr/local
#   make calibrate measure this machine into lib/wtc/machines/host.conf (predictor default);
#                 CALIBRATE_NP=P calibrates at P ranks (the P the predictions are for)
#
# The build tree has the install layout: bin/ and lib/wtc/ (runtimes, ABI header,
# machine presets). bin/wtcc finds lib/wtc relative to its own location.

PREFIX ?= /usr/local
CC ?= cc
MPICC ?= mpicc
# other MPI wrappers to build a runtime for, when present (one per implementation)
MPI_OTHERS ?= mpicc.mpich mpicc.openmpi smpicc
BISON ?= bison
FLEX ?= flex

WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
OPT ?= -O2 -g
SAN ?=
CFLAGS_ALL = -std=gnu11 $(OPT) $(WARN) $(SAN) $(EXTRA_CFLAGS)

B = build
LIBDIR = lib/wtc

# ---- the compiler -----------------------------------------------------------
PARSER_SRC = $(wildcard parser/*.c)
CODEGEN_SRC = $(wildcard codegen/*.c)
DRIVER_SRC = $(wildcard wtc/*.c)
GEN_PARSER = $(B)/parser/grammar.tab.c $(B)/parser/lexer.yy.c

WTCC_OBJ = $(patsubst %.c,$(B)/%.o,$(PARSER_SRC) $(CODEGEN_SRC) $(DRIVER_SRC)) \
           $(B)/parser/grammar.tab.o $(B)/parser/lexer.yy.o

# ---- the runtimes -----------------------------------------------------------
# runtime/common: options, stats, traces, payload sizes; runtime/core: every protocol
# decision (MPI-free), called by both executors: runtime/mpi (the program) and
# runtime/sim (the predictor's simulator).
RT_COMMON_SRC = $(wildcard runtime/common/*.c runtime/core/*.c)
RT_MPI_SRC = $(wildcard runtime/mpi/*.c)
RT_SIM_SRC = $(wildcard runtime/sim/*.c)
RT_INC = -Iruntime -Iruntime/common -Iruntime/core
RT_HDR = runtime/wtc_abi.h $(wildcard runtime/*/*.h)
RT_SIM_OBJ = $(patsubst %.c,$(B)/sim/%.o,$(RT_COMMON_SRC) $(RT_SIM_SRC))
CALIB_SRC = $(wildcard calibrate/*.c)
CALIB_HDR = $(wildcard calibrate/*.h)

# ---- one MPI runtime per MPI implementation (doc/wtcc.md "One runtime per MPI") ----
# lib/wtc/<impl>/libwtcrt_mpi.a, <impl> as runtime/mpi/wtc_mpi_impl.h names it (mpich,
# openmpi ...); wtcc --cc=W links the one of W's implementation. $(MPICC) comes first:
# it builds wtc-calibrate. Asking the wrappers runs their preprocessor once each, only
# in the inner make (after 'deps' has installed MPICH on a fresh machine).
ifdef WTC_INNER
MPI_WRAPPERS ?= $(MPICC) $(foreach w,$(filter-out $(MPICC),$(MPI_OTHERS)),\
                $(if $(shell command -v $(w) 2>/dev/null),$(w)))
MPI_IMPLS :=
# $(1) wrapper, $(2) its implementation, $(3) that MPI's mpiexec: its objects and archive
define mpi_runtime
MPI_IMPLS += $(2)
MPI_WRAPPER_$(2) := $(1)
$(B)/mpi-$(2)/%.o: %.c $$(RT_HDR)
	@mkdir -p $$(dir $$@)
	$(1) $$(CFLAGS_ALL) -MMD -MP -DWTCRT_MPI -DWTCRT_MPIEXEC='"$(3)"' $$(RT_INC) -Iruntime/mpi -c -o $$@ $$<
$(LIBDIR)/$(2)/libwtcrt_mpi.a: $$(patsubst %.c,$(B)/mpi-$(2)/%.o,$$(RT_COMMON_SRC) $$(RT_MPI_SRC))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
endef
# $(1) wrapper, $(2) "impl mpiexec" from tools/mpi-info.sh: a runtime unless one of the
# same implementation came first. Only $(MPICC) must work: another wrapper found
# broken is skipped with a warning.
mpi_add = $(if $(2),$(if $(filter $(word 1,$(2)),$(MPI_IMPLS)),,\
          $(eval $(call mpi_runtime,$(1),$(word 1,$(2)),$(word 2,$(2))))),\
          $(if $(filter $(1),$(MPICC)),\
               $(error cannot build the MPI runtime with '$(1)': see the message above),\
               $(warning no MPI runtime for '$(1)': see the message above)))
$(foreach w,$(MPI_WRAPPERS),$(call mpi_add,$(w),$(shell sh tools/mpi-info.sh $(w))))
MPI_DEFAULT := $(word 1,$(MPI_IMPLS))
RT_MPI_LIBS = $(foreach i,$(MPI_IMPLS),$(LIBDIR)/$(i)/libwtcrt_mpi.a)
endif

TARGETS = bin/wtcc $(RT_MPI_LIBS) $(LIBDIR)/libwtcrt_sim.a \
          $(LIBDIR)/include/wtc_abi.h $(LIBDIR)/include/wtc_mpi_impl.h \
          $(LIBDIR)/machines/.stamp
ifneq ($(CALIB_SRC),)
TARGETS += bin/wtc-calibrate
# the calibration of a simulated cluster: run under smpirun as on a real one (bench/smpi)
ifneq ($(filter smpi,$(MPI_IMPLS)),)
TARGETS += $(LIBDIR)/smpi/wtc-calibrate
endif
endif

.PHONY: all deps demo check check-openmpi install clean asan calibrate targets
# the targets are known once the MPI wrappers are (after 'deps'): an inner make
all: deps
	@$(MAKE) --no-print-directory WTC_INNER=1 targets
targets: $(TARGETS)

# Install what the build needs when it is missing (fresh Debian machine, CI).
deps:
	@sh tools/ensure-deps.sh

bin/wtcc: $(WTCC_OBJ)
	@mkdir -p bin
	$(CC) $(CFLAGS_ALL) -o $@ $^ -lm -pthread

$(B)/parser/grammar.tab.c $(B)/parser/grammar.tab.h: parser/grammar.y
	@mkdir -p $(B)/parser
	$(BISON) -Wall -Werror --defines=$(B)/parser/grammar.tab.h -o $(B)/parser/grammar.tab.c $<

$(B)/parser/lexer.yy.c: parser/lexer.l $(B)/parser/grammar.tab.h
	@mkdir -p $(B)/parser
	$(FLEX) -o $@ $<

# flex/bison output is not ours to keep warning-free in every detail
$(B)/parser/grammar.tab.o $(B)/parser/lexer.yy.o: %.o: %.c
	$(CC) -std=gnu11 $(OPT) $(SAN) -Wall -Werror -Wno-unused-function -Iparser -I$(B)/parser -c -o $@ $<

$(B)/%.o: %.c $(B)/parser/grammar.tab.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -Iparser -I$(B)/parser -Icodegen -Iwtc $(RT_INC) -c -o $@ $<

$(B)/sim/%.o: %.c $(RT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -DWTCRT_SIM $(RT_INC) -Iruntime/sim -c -o $@ $<

$(LIBDIR)/libwtcrt_sim.a: $(RT_SIM_OBJ)
	@mkdir -p $(LIBDIR)
	rm -f $@ && ar rcs $@ $^

$(LIBDIR)/include/%.h: runtime/%.h
	@mkdir -p $(LIBDIR)/include
	cp $< $@

$(LIBDIR)/include/%.h: runtime/mpi/%.h
	@mkdir -p $(LIBDIR)/include
	cp $< $@

$(LIBDIR)/machines/.stamp: $(wildcard machines/*.conf)
	@mkdir -p $(LIBDIR)/machines
	cp machines/*.conf $(LIBDIR)/machines/ 2>/dev/null || true
	touch $@

# links the MPI runtime: calibration measures its waiting and its cost per child
bin/wtc-calibrate: $(CALIB_SRC) $(CALIB_HDR) $(LIBDIR)/$(MPI_DEFAULT)/libwtcrt_mpi.a $(RT_HDR)
	@mkdir -p bin
	$(MPI_WRAPPER_$(MPI_DEFAULT)) $(CFLAGS_ALL) -DWTCRT_MPI $(RT_INC) -Iruntime/mpi -o $@ $(CALIB_SRC) $(LIBDIR)/$(MPI_DEFAULT)/libwtcrt_mpi.a -lm

$(LIBDIR)/smpi/wtc-calibrate: $(CALIB_SRC) $(CALIB_HDR) $(LIBDIR)/smpi/libwtcrt_mpi.a $(RT_HDR)
	$(MPI_WRAPPER_smpi) $(CFLAGS_ALL) -DWTCRT_MPI $(RT_INC) -Iruntime/mpi -o $@ $(CALIB_SRC) $(LIBDIR)/smpi/libwtcrt_mpi.a -lm

demo: all
	@sh tools/demo.sh

check: all
	@sh tools/ensure-deps.sh check
	@sh tests/run.sh

# The samples under Open MPI's mpiexec, all modes, -n 1-5; Open MPI is fetched into
# build/openmpi-root (never installed system-wide) when mpicc.openmpi is missing.
check-openmpi: all
	@sh bench/openmpi.sh

# Measure this machine once; predictors built by this wtcc then use it by default.
# The per-rank overheads are fitted over p = 2, 4, ..., CALIBRATE_NP (3 or more values
# of p: 8 ranks or more); a prediction beyond CALIBRATE_NP says it extrapolates.
# calibrate/start.sh first times a job that ends at once at -n 2 and -n CALIBRATE_NP (the
# job's launch, MPI's start and the end: t_launch, t_start, t_end; left out when it fails).
CALIBRATE_NP ?= 4
calibrate: all
	start=$$(sh calibrate/start.sh $(CALIBRATE_NP)); \
	timeout 600 mpiexec -n $(CALIBRATE_NP) bin/wtc-calibrate -o $(LIBDIR)/machines/host.conf $$start

# The compiler and runtimes under AddressSanitizer + UndefinedBehaviorSanitizer.
# (gcc 12 under -fsanitize=undefined reports a false "null format string" for
# vsnprintf(NULL, 0, fmt, ap), hence -Wno-format-truncation.)
ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -Wno-format-truncation
asan:
	$(MAKE) clean
	$(MAKE) all SAN="$(ASAN_FLAGS)"

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib
	cp bin/* $(DESTDIR)$(PREFIX)/bin/
	rm -rf $(DESTDIR)$(PREFIX)/lib/wtc && cp -r $(LIBDIR) $(DESTDIR)$(PREFIX)/lib/wtc

clean:
	rm -rf $(B) bin lib tests/out

-include $(shell find $(B) -name '*.d' 2>/dev/null)
