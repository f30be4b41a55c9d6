/* stepper_test.c: unit tests of the CFI stepper (runtime/unwind/) on real
 * code, with return addresses the code itself recorded as ground truth.
 *
 *   view_reads      coz_stack_read over direct views, and over checked
 *                   views of memory with an unmapped page in it: no
 *                   fault, the unmapped words unreadable
 *   fp_steps        frame-pointer steps over a made-up chain, and over a
 *                   bp that points anywhere
 *   before_refresh  no object table yet: every step fails
 *   asm.*           hand-written CFI (cfi_cases.S): remember/restore_state
 *                   with a row starting at the capture point, a call as a
 *                   function's last instruction, advance_loc4 +
 *                   GNU_args_size + same_value, a register rule,
 *                   val_offset, CFA expression, undefined return address,
 *                   signal frame
 *   chain.*         for each library given on the command line (cases.c
 *                   built with -O2 -fomit-frame-pointer by gcc and by
 *                   clang, dlopen'ed): a frameless leaf interrupted by a
 *                   signal, under frames with pushes and stack arrays, a
 *                   function using rbp as a general register, and deep
 *                   chains; from the signal's registers the stepper must
 *                   find every return address, restore the caller's rbp,
 *                   walk up to _start, and give the same frames through
 *                   a checked view of the live stack and a prefix of them
 *                   from truncated copies
 *   dlclose         an object unloaded since the last refresh is not read
 *   garbage         random registers and stack contents: no crash, and
 *                   every step moves sp up; the same with checked views
 *                   and registers pointing anywhere
 *
 * Usage: unwind_stepper LIB.so... */
#include "unwind.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
#define RA() ((uint64_t)(uintptr_t)__builtin_return_address(0))
#define FRAME() ((uint64_t)(uintptr_t)__builtin_frame_address(0))

static int failures;
static const char *current = "";

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      printf("FAIL %s (line %d): %s: ", current, __LINE__, #cond);             \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)

/* The main thread's stack: live views never reach past its top. */
static uintptr_t stack_lo, stack_hi;

static struct coz_stack_view live_view(uint64_t sp) {
  uint64_t size = sp >= stack_lo && sp < stack_hi ? stack_hi - sp : 0;
  struct coz_stack_view v;
  coz_stack_view_direct(&v, sp, size, (const void *)(uintptr_t)sp);
  return v;
}

#define MAX_STEPS 48

struct walk {
  int n; /* frames stepped to */
  struct coz_unwind_regs frame[MAX_STEPS];
  enum coz_unwind_result end;
};

static void walk(struct coz_unwind_regs regs, struct coz_stack_view *v,
                 struct walk *w) {
  w->n = 0;
  w->end = COZ_UNWIND_FAILED;
  while (w->n < MAX_STEPS) {
    enum coz_unwind_result r = coz_unwind_step(&regs, v);
    if (r != COZ_UNWIND_STEPPED) {
      w->end = r;
      return;
    }
    w->frame[w->n++] = regs;
  }
}

static bool same_frame(const struct coz_unwind_regs *a,
                       const struct coz_unwind_regs *b) {
  return a->pc == b->pc && a->sp == b->sp && a->bp_known == b->bp_known &&
         (!a->bp_known || a->bp == b->bp);
}

static const char *result_name(enum coz_unwind_result r) {
  return r == COZ_UNWIND_STEPPED     ? "stepped"
         : r == COZ_UNWIND_OUTERMOST ? "outermost"
                                     : "failed";
}

/* ---- view_reads ---- */

static void test_view_reads(void) {
  current = "view_reads";
  unsigned char whole[64];
  for (int i = 0; i < 64; i++)
    whole[i] = (unsigned char)(i * 7 + 1);
  const uint64_t base = 0x7000;
  for (uint64_t size = 0; size <= 64; size += 8) {
    struct coz_stack_view v;
    coz_stack_view_direct(&v, base, size, whole);
    for (uint64_t addr = base - 9; addr < base + 73; addr++) {
      uint64_t got = 0, want;
      bool inside = addr >= base && addr + 8 <= base + size;
      bool ok = coz_stack_read(&v, addr, &got);
      CHECK(ok == inside, "size %lu addr +%ld", (unsigned long)size,
            (long)(addr - base));
      if (ok && inside) {
        memcpy(&want, whole + (addr - base), 8);
        CHECK(got == want, "size %lu addr +%lu", (unsigned long)size,
              (unsigned long)(addr - base));
      }
    }
  }
  struct coz_stack_view empty;
  coz_stack_view_direct(&empty, base, 0, NULL);
  uint64_t x;
  CHECK(!coz_stack_read(&empty, base, &x), "empty view");

  /* Checked: three pages, the middle one unmapped. */
  long page = sysconf(_SC_PAGESIZE);
  unsigned char *m = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(m != MAP_FAILED, "mmap");
  if (m == MAP_FAILED)
    return;
  for (long i = 0; i < 3 * page; i++)
    if (i < page || i >= 2 * page)
      m[i] = (unsigned char)(i * 13 + 5);
  munmap(m + page, (size_t)page);
  uint64_t lo = (uint64_t)(uintptr_t)m;
  struct coz_stack_view cv;
  coz_stack_view_checked(&cv, lo, 3 * (uint64_t)page);
  int wrong = 0, faulted_read = 0, missed = 0;
  for (uint64_t off = 0; off + 8 <= 3 * (uint64_t)page; off += 8) {
    uint64_t got = 0, want;
    bool mapped = off + 8 <= (uint64_t)page || off >= 2 * (uint64_t)page;
    bool ok = coz_stack_read(&cv, lo + off, &got);
    faulted_read += ok && !mapped;
    missed += !ok && mapped;
    if (ok && mapped) {
      memcpy(&want, m + off, 8);
      wrong += got != want;
    }
  }
  CHECK(wrong == 0 && faulted_read == 0 && missed == 0,
        "checked view: %d wrong, %d reads of the unmapped page, %d mapped "
        "words unread",
        wrong, faulted_read, missed);
  CHECK(!coz_stack_read(&cv, lo - 8, &x) &&
            !coz_stack_read(&cv, lo + 3 * (uint64_t)page, &x),
        "checked view: outside its range");
  munmap(m, (size_t)page);
  munmap(m + 2 * page, (size_t)page);
}

/* ---- fp_steps ---- */

static void test_fp_steps(void) {
  current = "fp_steps";
  /* frames at f[4], f[10], f[20]: each [bp] the next, [bp + 8] a pc. */
  uint64_t f[32] = {0};
  uint64_t lo = (uint64_t)(uintptr_t)f;
  f[4] = lo + 10 * 8, f[5] = 0x401111;
  f[10] = lo + 20 * 8, f[11] = 0x402222;
  f[20] = 0, f[21] = 0x403333;
  struct coz_stack_view v;
  coz_stack_view_direct(&v, lo, sizeof f, f);
  struct coz_unwind_regs r = {0x400000, lo, lo + 4 * 8, true, false};
  uint64_t pcs[4];
  int n = 0;
  while (n < 4 && coz_unwind_fp_step(&r, &v))
    pcs[n++] = r.pc;
  CHECK(n == 3 && pcs[0] == 0x401111 && pcs[1] == 0x402222 &&
            pcs[2] == 0x403333,
        "made-up chain: %d steps", n);
  /* A bp below sp, misaligned, past the view or unknown stops at once. */
  const uint64_t bad[] = {lo - 16, lo + 4 * 8 + 1, lo + sizeof f - 8,
                          UINT64_MAX - 15, 0};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    struct coz_unwind_regs b = {0x400000, lo + 8, bad[i], true, false};
    CHECK(!coz_unwind_fp_step(&b, &v) && b.pc == 0x400000, "bad bp %zu", i);
  }
  struct coz_unwind_regs u = {0x400000, lo, lo + 4 * 8, false, false};
  CHECK(!coz_unwind_fp_step(&u, &v), "unknown bp");
}

/* ---- before_refresh ---- */

NOINLINE static void test_before_refresh(void) {
  current = "before_refresh";
  uint64_t sp;
  __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
  struct coz_unwind_regs regs = {(uint64_t)(uintptr_t)&test_before_refresh, sp,
                                 FRAME(), true, false};
  struct coz_stack_view v = live_view(sp);
  CHECK(coz_unwind_step(&regs, &v) == COZ_UNWIND_FAILED, "no table yet");
}

/* ---- asm.* ---- */

extern struct { uint64_t pc, sp, bp, ra; } asm_cap;
void asm_remember_restore(uint64_t take_out_of_line);
void asm_call_at_end(uint64_t unused);
void asm_after_call_at_end(void);
void asm_far(uint64_t unused);
void asm_ra_in_rbp(uint64_t unused);
void asm_val_offset(uint64_t unused);
void asm_cfa_expression(uint64_t unused);
void asm_outermost(uint64_t unused);
void asm_signal_frame(uint64_t unused);

static struct {
  enum coz_unwind_result r;
  struct coz_unwind_regs after;
  struct walk rest;
} probe;

/* Called at the capture points of cfi_cases.S. */
void probe_capture(void);
void probe_capture(void) {
  struct coz_unwind_regs regs = {asm_cap.pc, asm_cap.sp, asm_cap.bp, true,
                                 false};
  struct coz_stack_view v = live_view(regs.sp);
  memset(&probe, 0, sizeof probe);
  probe.r = coz_unwind_step(&regs, &v);
  probe.after = regs;
  if (probe.r == COZ_UNWIND_STEPPED)
    walk(regs, &v, &probe.rest);
}

static uint64_t caller_fp, caller_ra;

NOINLINE static void run_asm(void (*fn)(uint64_t), uint64_t arg) {
  caller_fp = FRAME();
  caller_ra = RA();
  fn(arg);
  __asm__ volatile("" ::: "memory"); /* not a tail call */
}

/* After stepping out of the asm function: back in run_asm, its rbp
 * restored; then out of run_asm and on to _start. */
static void check_back_in_caller(uint64_t want_sp) {
  CHECK(probe.r == COZ_UNWIND_STEPPED, "%s", result_name(probe.r));
  CHECK(probe.after.pc == asm_cap.ra && asm_cap.ra != 0, "pc %#lx want %#lx",
        (unsigned long)probe.after.pc, (unsigned long)asm_cap.ra);
  CHECK(probe.after.sp == want_sp, "sp %#lx want %#lx",
        (unsigned long)probe.after.sp, (unsigned long)want_sp);
  CHECK(probe.after.bp_known && probe.after.bp == caller_fp,
        "bp %#lx want %#lx", (unsigned long)probe.after.bp,
        (unsigned long)caller_fp);
  CHECK(probe.rest.n >= 1 && probe.rest.frame[0].pc == caller_ra,
        "run_asm's return address");
  CHECK(probe.rest.end == COZ_UNWIND_OUTERMOST, "walk ended %s after %d",
        result_name(probe.rest.end), probe.rest.n);
}

static void test_asm(void) {
  current = "asm.remember_restore";
  run_asm(asm_remember_restore, 0);
  check_back_in_caller(asm_cap.sp + 32);

  /* Frame 0 is asm_capture_in_callee, frame 1 the last byte of
   * asm_call_at_end, frame 2 run_asm. */
  current = "asm.call_at_end";
  run_asm(asm_call_at_end, 0);
  CHECK(probe.r == COZ_UNWIND_STEPPED, "%s", result_name(probe.r));
  CHECK(probe.after.pc == (uint64_t)(uintptr_t)&asm_after_call_at_end,
        "returns to the next function's first byte");
  CHECK(probe.rest.n >= 2, "stepped %d more frames (%s)", probe.rest.n,
        result_name(probe.rest.end));
  if (probe.rest.n >= 2) {
    CHECK(probe.rest.frame[0].pc == asm_cap.ra && asm_cap.ra != 0,
          "pc %#lx want %#lx", (unsigned long)probe.rest.frame[0].pc,
          (unsigned long)asm_cap.ra);
    CHECK(probe.rest.frame[0].sp == asm_cap.sp + 32, "sp");
    CHECK(probe.rest.frame[0].bp == caller_fp, "bp");
    CHECK(probe.rest.frame[1].pc == caller_ra, "run_asm's return address");
  }
  CHECK(probe.rest.end == COZ_UNWIND_OUTERMOST, "walk ended %s",
        result_name(probe.rest.end));

  current = "asm.far_args_size";
  run_asm(asm_far, 0);
  check_back_in_caller(asm_cap.bp + 16);

  current = "asm.ra_in_register";
  run_asm(asm_ra_in_rbp, 0);
  check_back_in_caller(asm_cap.sp + 16);

  current = "asm.val_offset";
  run_asm(asm_val_offset, 0);
  CHECK(probe.r == COZ_UNWIND_STEPPED, "%s", result_name(probe.r));
  CHECK(probe.after.pc == asm_cap.ra, "pc");
  CHECK(probe.after.sp == asm_cap.sp + 16, "sp");
  CHECK(probe.after.bp_known && probe.after.bp == asm_cap.sp + 16,
        "bp is the CFA");

  current = "asm.cfa_expression";
  run_asm(asm_cfa_expression, 0);
  CHECK(probe.r == COZ_UNWIND_FAILED, "%s", result_name(probe.r));

  current = "asm.outermost";
  run_asm(asm_outermost, 0);
  CHECK(probe.r == COZ_UNWIND_OUTERMOST, "%s", result_name(probe.r));

  current = "asm.signal_frame";
  run_asm(asm_signal_frame, 0);
  CHECK(probe.r == COZ_UNWIND_FAILED, "%s", result_name(probe.r));
}

/* ---- chain.* ---- */

static const char *chain_names[] = {"chain_leaf", "chain_pushes", "chain_rbp",
                                    "chain_deep"};
#define N_CHAINS 4

static uint64_t *lib_ra;
static volatile int *lib_spinning, *lib_stop;
static pthread_t main_thread;

/* Filled by the signal handler. */
static struct walk live;
static uint64_t interrupted_pc;
static int checked_mismatch, truncated_mismatches;
#define COPY_MAX (256 * 1024)
static unsigned char copy_a[COPY_MAX];

/* Copies n bytes of live stack from sp, as the kernel does for perf: under
 * AddressSanitizer the redzones between the frames are stack memory like
 * any other here, so the copy is neither instrumented nor a memcpy call. */
__attribute__((no_sanitize_address)) static void
copy_stack(unsigned char *dst, uint64_t sp, uint64_t n) {
  const volatile unsigned char *src =
      (const volatile unsigned char *)(uintptr_t)sp;
  for (uint64_t i = 0; i < n; i++)
    dst[i] = src[i];
}

static void on_sample_signal(int sig, siginfo_t *info, void *ucv) {
  (void)sig;
  (void)info;
  const ucontext_t *uc = ucv;
  struct coz_unwind_regs regs = {(uint64_t)uc->uc_mcontext.gregs[REG_RIP],
                                 (uint64_t)uc->uc_mcontext.gregs[REG_RSP],
                                 (uint64_t)uc->uc_mcontext.gregs[REG_RBP], true,
                                 false};
  interrupted_pc = regs.pc;
  struct coz_stack_view v = live_view(regs.sp);
  walk(regs, &v, &live);

  uint64_t n = v.size < COPY_MAX ? v.size : COPY_MAX;
  copy_stack(copy_a, regs.sp, n);
  /* The same stack through a checked view: the same frames. */
  struct walk w;
  struct coz_stack_view cv;
  coz_stack_view_checked(&cv, regs.sp, v.size);
  walk(regs, &cv, &w);
  bool same = w.n == live.n && w.end == live.end;
  for (int f = 0; same && f < w.n; f++)
    same = same_frame(&w.frame[f], &live.frame[f]);
  checked_mismatch = !same;
  /* Truncated copies: whatever they step to must be the live frames. */
  const uint64_t sizes[] = {0, 8, 16, 24, 64, 200, 512};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    uint64_t size = sizes[i] < n ? sizes[i] : n;
    struct coz_stack_view tv;
    coz_stack_view_direct(&tv, regs.sp, size, copy_a);
    walk(regs, &tv, &w);
    bool prefix = w.n <= live.n;
    for (int f = 0; prefix && f < w.n; f++)
      prefix = same_frame(&w.frame[f], &live.frame[f]);
    truncated_mismatches += !prefix;
  }
  *lib_stop = 1;
}

static void *send_signal_when_spinning(void *arg) {
  (void)arg;
  struct timespec ms = {0, 1000000};
  while (!*lib_spinning)
    nanosleep(&ms, NULL);
  pthread_kill(main_thread, SIGUSR1);
  return NULL;
}

static uint64_t exe_ra, exe_fp;

NOINLINE static uint64_t exe_call(uint64_t (*fn)(uint64_t), uint64_t x) {
  exe_ra = RA();
  exe_fp = FRAME();
  uint64_t r = fn(x);
  __asm__ volatile("" ::: "memory"); /* not a tail call */
  return r + 1;
}

static void test_chains(const char *path) {
  char name[256];
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  current = "chain.load";
  CHECK(h != NULL, "dlopen %s: %s", path, dlerror());
  if (!h)
    return;
  lib_ra = dlsym(h, "case_ra");
  lib_spinning = dlsym(h, "case_spinning");
  lib_stop = dlsym(h, "case_stop");
  const int *depths = dlsym(h, "case_depths");
  CHECK(lib_ra && lib_spinning && lib_stop && depths, "symbols of %s", path);
  if (!lib_ra || !lib_spinning || !lib_stop || !depths)
    return;
  coz_unwind_refresh(); /* the table must now hold the library */
  for (int c = 0; c < N_CHAINS; c++) {
    snprintf(name, sizeof name, "chain.%s.%s", base, chain_names[c]);
    current = name;
    uint64_t (*fn)(uint64_t) =
        (uint64_t(*)(uint64_t))(uintptr_t)dlsym(h, chain_names[c]);
    CHECK(fn != NULL, "dlsym");
    if (!fn)
      continue;
    memset(lib_ra, 0, 16 * sizeof *lib_ra);
    memset(&live, 0, sizeof live);
    *lib_spinning = 0;
    *lib_stop = 0;
    checked_mismatch = truncated_mismatches = 0;
    pthread_t helper;
    pthread_create(&helper, NULL, send_signal_when_spinning, NULL);
    exe_call(fn, 12345);
    pthread_join(helper, NULL);

    int d = depths[c];
    CHECK(live.n >= d + 1, "stepped %d frames (%s), want more than %d", live.n,
          result_name(live.end), d);
    for (int i = 0; i < d && i < live.n; i++)
      CHECK(live.frame[i].pc == lib_ra[i] && lib_ra[i] != 0,
            "frame %d pc %#lx want %#lx", i + 1,
            (unsigned long)live.frame[i].pc, (unsigned long)lib_ra[i]);
    if (live.n > d) {
      /* Back in exe_call (built with frame pointers, CFA = rbp + 16):
       * its rbp must have been restored through the library's frames. */
      CHECK(live.frame[d - 1].bp_known && live.frame[d - 1].bp == exe_fp,
            "rbp in exe_call %#lx want %#lx",
            (unsigned long)live.frame[d - 1].bp, (unsigned long)exe_fp);
      CHECK(live.frame[d].pc == exe_ra, "exe_call's return address");
    }
    CHECK(live.end == COZ_UNWIND_OUTERMOST, "walk ended %s after %d frames",
          result_name(live.end), live.n);
    CHECK(!checked_mismatch, "the walk through a checked view differs");
    CHECK(truncated_mismatches == 0, "%d truncated copies stepped elsewhere",
          truncated_mismatches);
    printf("%s: %d frames to _start (interrupted at %#lx)\n", name, live.n,
           (unsigned long)interrupted_pc);
  }
  dlclose(h);
}

/* ---- dlclose ---- */

static void test_dlclose(const char *path) {
  current = "dlclose";
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  CHECK(h != NULL, "dlopen");
  if (!h)
    return;
  uint64_t entry = (uint64_t)(uintptr_t)dlsym(h, "chain_leaf");
  coz_unwind_refresh();
  /* At a function's first instruction: CFA = sp + 8, return address at sp. */
  uint64_t fake[4] = {0x12345678, 0, 0, 0};
  struct coz_stack_view v;
  coz_stack_view_direct(&v, (uint64_t)(uintptr_t)fake, sizeof fake, fake);
  struct coz_unwind_regs regs = {entry, v.lo, 0, false, false};
  enum coz_unwind_result r = coz_unwind_step(&regs, &v);
  CHECK(r == COZ_UNWIND_STEPPED && regs.pc == 0x12345678 && regs.sp == v.lo + 8,
        "loaded: %s", result_name(r));
  dlclose(h);
  regs = (struct coz_unwind_regs){entry, v.lo, 0, false, false};
  r = coz_unwind_step(&regs, &v);
  CHECK(r == COZ_UNWIND_FAILED, "unloaded, before a refresh: %s",
        result_name(r));
  coz_unwind_refresh();
  regs = (struct coz_unwind_regs){entry, v.lo, 0, false, false};
  r = coz_unwind_step(&regs, &v);
  CHECK(r == COZ_UNWIND_FAILED, "unloaded, after a refresh: %s",
        result_name(r));
}

/* ---- garbage ---- */

static uint64_t rng = 88172645463325252ull;
static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void test_garbage(void) {
  current = "garbage";
  static uint64_t junk[512];
  uint64_t code[] = {(uint64_t)(uintptr_t)&getpid, (uint64_t)(uintptr_t)&memcpy,
                     (uint64_t)(uintptr_t)&test_garbage,
                     (uint64_t)(uintptr_t)&coz_unwind_step};
  int stepped = 0, backwards = 0;
  for (int iter = 0; iter < 20000; iter++) {
    for (size_t i = 0; i < 512; i++)
      junk[i] = next_random() % 4
                    ? next_random()
                    : code[next_random() % 4] + next_random() % 4096;
    uint64_t size = (next_random() % 513) * 8;
    struct coz_stack_view v;
    bool checked = iter % 4 == 3;
    if (checked) /* registers and view anywhere: reads must not fault */
      coz_stack_view_checked(
          &v, next_random() % 2 ? next_random() : (uint64_t)(uintptr_t)junk,
          size * 64);
    else
      coz_stack_view_direct(&v, (uint64_t)(uintptr_t)junk, size, junk);
    uint64_t pc = next_random() % 8
                      ? code[next_random() % 4] + next_random() % 65536 - 32768
                      : next_random();
    struct coz_unwind_regs regs = {
        pc, v.lo + (next_random() % 64) * 8,
        next_random() % 2 ? v.lo + (next_random() % 512) * 8 : next_random(),
        next_random() % 2 != 0, next_random() % 2 != 0};
    for (int s = 0; s < 8; s++) {
      uint64_t sp = regs.sp;
      bool moved = next_random() % 2
                       ? coz_unwind_fp_step(&regs, &v)
                       : coz_unwind_step(&regs, &v) == COZ_UNWIND_STEPPED;
      if (!moved)
        break;
      stepped++;
      backwards += regs.sp <= sp;
    }
  }
  CHECK(backwards == 0, "%d steps did not move sp up", backwards);
  printf("garbage: %d steps taken on random data, none backwards\n", stepped);
}

int main(int argc, char **argv) {
  main_thread = pthread_self();
  pthread_attr_t attr;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &attr) != 0 ||
      pthread_attr_getstack(&attr, &addr, &size) != 0) {
    printf("FAIL: cannot find the main thread's stack\n");
    return 1;
  }
  pthread_attr_destroy(&attr);
  stack_lo = (uintptr_t)addr;
  stack_hi = stack_lo + size;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sample_signal;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &sa, NULL);

  test_view_reads();
  test_fp_steps();
  test_before_refresh();
  coz_unwind_refresh();
  test_asm();
  for (int i = 1; i < argc; i++)
    test_chains(argv[i]);
  if (argc > 1)
    test_dlclose(argv[1]);
  test_garbage();
  if (argc < 2) {
    printf("FAIL: no case library given\n");
    return 1;
  }
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
