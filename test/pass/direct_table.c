// The runtime's direct table (runtime/direct_calls.h), which the
// checkpoints' entries read first: with profiling off, its WAKE and BLOCK
// rows hold libc's own functions, which the entries then tail-call; so they
// do while the program has one thread (no delay to pay, no thread to wake).
// With profiling on, once the program starts a thread (or with
// COZ_ONE_THREAD=0, when the profiler has one of its own from the start),
// they are NULL, and the calls go through the checkpoints. A fork child
// stops profiling, so its rows are libc's again. CREATE and EXIT rows are
// never set. The table is the runtime's own (not the pass's ABI): this test
// reads it by its symbol, as a program linked with the runtime can.
// REQUIRES: coz-driver
// RUN: %coz-cc -O2 %s -o %t
// RUN: env COZ_OFF=1 %t | FileCheck --check-prefix=OFF %s
// RUN: env COZ_OUTPUT=%t.coz COZ_QUIET=1 %t | FileCheck --check-prefix=ON %s
// RUN: env COZ_OUTPUT=%t.coz COZ_QUIET=1 COZ_ONE_THREAD=0 %t | FileCheck --check-prefix=THREAD %s
// OFF: one thread: direct rows libc, other rows null
// OFF-NEXT: two threads: direct rows libc, other rows null
// OFF-NEXT: fork child: direct rows libc, other rows null
// ON: one thread: direct rows libc, other rows null
// ON-NEXT: two threads: direct rows null, other rows null
// ON-NEXT: fork child: direct rows libc, other rows null
// THREAD: one thread: direct rows null, other rows null
// THREAD-NEXT: two threads: direct rows null, other rows null
// THREAD-NEXT: fork child: direct rows libc, other rows null
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern void *coz_direct[];

static const struct {
  const char *name;
  int direct;
} rows[] = {
#define WAKE 1
#define BLOCK 1
#define CREATE 0
#define EXIT 0
#define COZ_CHECKPOINT(ROLE, RET, NAME, ...) {#NAME, ROLE},
#include "../../contract/checkpoints.def"
};

// "libc" when every row holds what the dynamic linker finds after the
// executable (the executable's own NAME is the runtime's interposer),
// "null" when every row is NULL, else the first row that is neither.
static const char *state(int direct) {
  int libc = 0, null = 0, n = 0;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    if (rows[i].direct != direct)
      continue;
    n++;
    if (!coz_direct[i])
      null++;
    else if (coz_direct[i] == dlsym(RTLD_NEXT, rows[i].name))
      libc++;
    else
      return rows[i].name;
  }
  return libc == n ? "libc" : null == n ? "null" : "mixed";
}

static void report(const char *who) {
  printf("%s: direct rows %s, other rows %s\n", who, state(1), state(0));
  fflush(stdout);
}

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

// A lock through the rewritten call site works either way.
static void *locked(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return arg;
}

int main(void) {
  locked(NULL);
  report("one thread");
  pthread_t t;
  pthread_create(&t, NULL, locked, NULL);
  pthread_join(t, NULL);
  report("two threads");
  pid_t pid = fork();
  if (pid == 0) {
    report("fork child");
    _exit(0);
  }
  int status;
  waitpid(pid, &status, 0);
  return 0;
}
