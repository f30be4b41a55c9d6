/* stack.c: stack views (see stack.h). */
#include "stack.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

void coz_stack_view_direct(struct coz_stack_view *v, uint64_t lo, uint64_t size,
                           const void *mem) {
  v->lo = lo;
  v->size = mem ? size : 0;
  v->mem = mem;
  v->own_lo = v->own_hi = 0;
  v->pid = 0;
  v->window_at = 0;
}

static void view_at(struct coz_stack_view *v, uint64_t sp, uint64_t own_lo,
                    uint64_t own_hi);

void coz_stack_view_checked(struct coz_stack_view *v, uint64_t lo,
                            uint64_t size) {
  v->lo = lo;
  v->size = size;
  v->mem = NULL;
  v->own_lo = v->own_hi = 0;
  v->pid = getpid();
  v->window_at = 0;
}

void coz_stack_view_at(struct coz_stack_view *v, uint64_t sp, uint64_t own_lo,
                       uint64_t own_hi) {
  view_at(v, sp, own_lo, own_hi);
  v->own_lo = own_lo;
  v->own_hi = own_hi;
}

bool coz_stack_view_to_own(struct coz_stack_view *v, uint64_t sp) {
  uint64_t lo = v->own_lo, hi = v->own_hi;
  if (!hi || sp < lo || sp >= hi || (v->lo >= lo && v->lo < hi))
    return false;
  coz_stack_view_direct(v, sp, hi - sp, (const void *)(uintptr_t)sp);
  v->own_lo = lo;
  v->own_hi = hi;
  return true;
}

static void view_at(struct coz_stack_view *v, uint64_t sp, uint64_t own_lo,
                    uint64_t own_hi) {
  if (own_hi && sp >= own_lo && sp < own_hi) {
    coz_stack_view_direct(v, sp, own_hi - sp, (const void *)(uintptr_t)sp);
    return;
  }
  /* A handler of the program's running on its alternate stack. */
  stack_t ss;
  if (sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE)) {
    uint64_t lo = (uint64_t)(uintptr_t)ss.ss_sp, hi = lo + ss.ss_size;
    if (sp >= lo && sp < hi) {
      coz_stack_view_direct(v, sp, hi - sp, (const void *)(uintptr_t)sp);
      return;
    }
  }
  /* Stay below the top of the address space. */
  uint64_t span = COZ_STACK_CHECKED_SPAN;
  if (sp > UINT64_MAX - span)
    span = UINT64_MAX - sp;
  coz_stack_view_checked(v, sp, span);
}

/* Copies the window holding addr; false if it is not readable. */
static bool load_window(struct coz_stack_view *v, uint64_t addr) {
  uint64_t at = addr & ~(uint64_t)(COZ_STACK_WINDOW - 1);
  if (v->window_at == at && at != 0)
    return true;
  struct iovec local = {v->window, COZ_STACK_WINDOW};
  struct iovec remote = {(void *)(uintptr_t)at, COZ_STACK_WINDOW};
  if (at == 0 || process_vm_readv(v->pid, &local, 1, &remote, 1, 0) !=
                     (ssize_t)COZ_STACK_WINDOW) {
    v->window_at = 0;
    return false;
  }
  v->window_at = at;
  return true;
}

bool coz_stack_read(struct coz_stack_view *v, uint64_t addr, uint64_t *out) {
  if (addr < v->lo || v->size < 8 || addr - v->lo > v->size - 8)
    return false;
  if (v->mem) {
    memcpy(out, v->mem + (addr - v->lo), 8);
  } else {
    /* Checked: a word must lie within one window (aligned words do). */
    uint64_t off = addr & (COZ_STACK_WINDOW - 1);
    if (off > COZ_STACK_WINDOW - 8 || !load_window(v, addr))
      return false;
    memcpy(out, v->window + off, 8);
  }
  COZ_UNTRUSTED_DEFINED(out, 8);
  return true;
}

bool coz_stack_own_range(uint64_t *lo, uint64_t *hi) {
  *lo = *hi = 0;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0)
    return false;
  void *addr;
  size_t size;
  bool ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
  if (ok) {
    *lo = (uint64_t)(uintptr_t)addr;
    *hi = *lo + size;
  }
  pthread_attr_destroy(&attr);
  return ok;
}
