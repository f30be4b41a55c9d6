/* sampler_kernel.c: the perf sampler's samples of time in the kernel.
 *
 * The perf sampler's own event overflows in user mode only: a signal raised
 * inside a system call would cut the program's next sleep short (EINTR).
 * But the kernel drops an overflow that falls in an excluded mode, so the
 * time a thread spends in system calls and page faults was in no line's
 * samples, and a line whose cost is the kernel's (a lock that sleeps, I/O)
 * ranked too low and sped up too little (docs/case-studies.md, SQLite).
 *
 * So, where perf allows kernel sampling (perf_event_paranoid <= 1, or
 * CAP_PERFMON), each perf-sampled thread gets a second task-clock event,
 * with the same period, that keeps only the overflows falling in the kernel
 * and raises no signal: the kernel writes each into a small ring with the
 * thread's user-mode registers at its entry to the kernel and a copy of the
 * top of its user stack. The thread itself reads the ring (a single
 * reader), in its user-mode sample handler and at its interposed I/O calls
 * (sample_processing.c), and attributes each record that entered the
 * kernel by a system call as a sample of its own,
 * unwinding from the registers through the copy: the line that made the
 * call gets the kernel's time, as it gets the time of the library code it
 * calls (entered_by_syscall says why the other ways in do not count).
 *
 * Costs: one more descriptor and a 17-page mapping per thread, opened once
 * the thread shows time in the kernel (open_event), at most
 * COZ_KERNEL_EVENTS at once (threads beyond run without); no system call
 * per sample after that. Records the ring cannot hold (a thread long in the
 * kernel between two readings: one system call of over ~15 ms of kernel
 * CPU, or calls that are not interposed) are counted as lost, not
 * attributed. */
#include "sampler_kernel.h"
#include "config.h"
#include "fd_floor.h"
#include "sampler_perf.h"
#include "unwind/objects.h"
#include "util.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#if defined(__x86_64__)
#include <asm/perf_regs.h>
#define USER_REGS                                                              \
  ((1ull << PERF_REG_X86_BP) | (1ull << PERF_REG_X86_SP) |                     \
   (1ull << PERF_REG_X86_IP))
#else /* the unwinder steps x86-64 frames only (unwind/unwind.h) */
#define USER_REGS 0
#endif

/* Data pages of each ring (a power of two): ~15 records of 4 KiB stack. */
#define RING_PAGES 16
/* Threads with a kernel event at once (each holds a descriptor the
 * program's own numbering may feel, fd_floor.h). */
#define COZ_KERNEL_EVENTS 256

static _Atomic int live_events;
static bool permitted; /* set once, before any thread starts sampling */

/* Read once at initialisation: sysconf is no system call to make in a
 * handler. */
static size_t page;

static size_t page_size(void) { return page; }

static long kernel_open(pid_t tid, uint64_t period) {
  struct perf_event_attr attr;
  coz_perf_task_clock(&attr, period);
  attr.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  attr.sample_regs_user = USER_REGS;
  attr.sample_stack_user = COZ_KERNEL_STACK;
  attr.wakeup_events = 1u << 30; /* no one waits on the ring */
  attr.exclude_user = 1;
  return coz_perf_open(&attr, tid);
}

bool coz_perf_kernel_init(void) {
  permitted = false;
  page = (size_t)sysconf(_SC_PAGESIZE);
  if (!coz_config.KERNEL_SAMPLES || USER_REGS == 0)
    return false;
  long fd = kernel_open(0, coz_config.PERIOD);
  if (fd < 0) {
    coz_log_verbose(1,
                    "no samples of kernel time (perf: %s); "
                    "COZ_SAMPLER=timer counts it",
                    strerror(errno));
    return false;
  }
  coz_fd_close((int)fd);
  permitted = true;
  return true;
}

void coz_perf_kernel_start(struct coz_sampler_thread *s) {
  s->kfd = -1;
  s->kring = NULL;
  s->kwanted = permitted;
}

/* Opens the thread's event, from the thread itself (its sample handler or
 * an I/O call: system calls only), once its user-mode samples show that it
 * spends time in the kernel (coz_kernel_ring_due). The event's timer
 * interrupts the thread every period in user mode too (~1% of the CPU
 * time at the default period on this project's VM, more at shorter ones:
 * a line sampled every 100 us took 9-14% more samples), so a thread that
 * stays in user mode never pays for it, nor a short-lived one for the
 * mapping (~40 us of a thread's start and exit, measured). The kernel time
 * before the event opens is not sampled. */
static void open_event(struct coz_sampler_thread *s) {
  s->kwanted = false;
  pid_t tid = coz_gettid();
  if (atomic_fetch_add(&live_events, 1) >= COZ_KERNEL_EVENTS) {
    atomic_fetch_sub(&live_events, 1);
    return;
  }
  /* A fixed period, not jittered: changing it restarts it
   * (PERF_EVENT_IOC_PERIOD), and a restart at each reading of the ring,
   * which follows the thread's user-mode samples, would drop the part of a
   * period run until then (a fifth of the kernel's samples, measured); and
   * a line's samples are counted, so every thread's periods have the same
   * mean. The kernel's own timing (interrupts, timer slack) is the jitter. */
  long fd = coz_fd_floor((int)kernel_open(tid, coz_config.PERIOD));
  void *ring = MAP_FAILED;
  if (fd >= 0)
    ring = mmap(NULL, (1 + RING_PAGES) * page_size(), PROT_READ | PROT_WRITE,
                MAP_SHARED, (int)fd, 0);
  if (ring == MAP_FAILED || ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    /* No log: this runs in a signal handler. The thread's kernel time goes
     * unsampled, as a thread's beyond COZ_KERNEL_EVENTS. */
    if (ring != MAP_FAILED)
      munmap(ring, (1 + RING_PAGES) * page_size());
    if (fd >= 0)
      coz_fd_close((int)fd);
    atomic_fetch_sub(&live_events, 1);
    return;
  }
  s->kfd = (int)fd;
  s->kring = ring;
}

static void release(struct coz_sampler_thread *s, bool counted) {
  if (s->kring)
    munmap(s->kring, (1 + RING_PAGES) * page_size());
  if (s->kfd >= 0) {
    coz_fd_close(s->kfd);
    if (counted)
      atomic_fetch_sub(&live_events, 1);
  }
  s->kring = NULL;
  s->kfd = -1;
  s->kwanted = false;
}

void coz_perf_kernel_stop(struct coz_sampler_thread *s) { release(s, true); }

void coz_perf_kernel_forget(struct coz_sampler_thread *s) {
  /* The child's copies of the parent's event: never read the parent's
   * ring. The child starts its own count. */
  release(s, false);
  atomic_store(&live_events, 0);
}

void coz_perf_kernel_suspend(struct coz_sampler_thread *s, bool suspend) {
  if (s->kfd >= 0)
    ioctl(s->kfd, suspend ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0);
}

/* Whether the thread entered the kernel by a system call: its user pc then
 * follows a `syscall` instruction (0f 05). The other ways in are not the
 * line's doing, or not told apart from those that are: interrupts (the
 * user-mode sampler's own timer and signal among them, whose cost the
 * user-mode samples' weight holds already: charged again here, it made a
 * line sampled every 100 us look 37% costlier, measured) and page faults.
 * The two bytes are read only inside a loaded object's code, which the
 * loader maps readable. Async-signal-safe. */
static bool entered_by_syscall(uint64_t pc) {
  const struct coz_unwind_objects *t = coz_unwind_objects_pin();
  const struct coz_unwind_object *o =
      t && pc >= 2 ? coz_unwind_object_find(t, (uintptr_t)pc - 1) : NULL;
  bool yes = o && pc - 2 >= o->text_lo && pc <= o->text_hi &&
             ((const unsigned char *)(uintptr_t)pc)[-2] == 0x0f &&
             ((const unsigned char *)(uintptr_t)pc)[-1] == 0x05;
  coz_unwind_objects_unpin();
  return yes;
}

/* Copies n bytes at offset off of the ring's data, which wraps. */
static void ring_copy(void *dst, const unsigned char *data, size_t size,
                      uint64_t off, size_t n) {
  size_t at = (size_t)(off & (size - 1));
  size_t first = n < size - at ? n : size - at;
  memcpy(dst, data + at, first);
  memcpy((unsigned char *)dst + first, data, n - first);
}

bool coz_perf_kernel_next(struct coz_sampler_thread *s,
                          struct coz_sample *out) {
  struct perf_event_mmap_page *h = s->kring;
  if (!h) {
    if (coz_kernel_ring_due(s))
      open_event(s);
    return false;
  }
  const unsigned char *data = (const unsigned char *)h + page_size();
  size_t size = RING_PAGES * page_size();
  uint64_t head = __atomic_load_n(&h->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = h->data_tail;
  bool found = false;
  while (!found && tail < head) {
    struct perf_event_header e;
    ring_copy(&e, data, size, tail, sizeof e);
    if (e.size < sizeof e || e.size > head - tail)
      break; /* not a record: leave the rest */
    uint64_t at = tail + sizeof e;
    if (e.type == PERF_RECORD_LOST) {
      uint64_t lost[2]; /* id, lost */
      ring_copy(lost, data, size, at, sizeof lost);
      s->kernel_lost += lost[1];
    } else if (e.type == PERF_RECORD_SAMPLE) {
      /* abi, then bp, sp, ip (bit order), then the stack's size, bytes
       * and dynamic size. abi 0: no user registers (never for a thread of
       * a process) and no stack. */
      uint64_t f[5];
      ring_copy(f, data, size, at, sizeof(uint64_t));
      bool whole = f[0] != PERF_SAMPLE_REGS_ABI_NONE &&
                   e.size >= sizeof e + sizeof f + sizeof(uint64_t);
      if (whole)
        ring_copy(f, data, size, at, sizeof f);
      if (whole && entered_by_syscall(f[3])) {
        uint64_t copied = f[4] <= COZ_KERNEL_STACK ? f[4] : 0;
        uint64_t dyn = 0;
        if (copied) {
          ring_copy(s->kstack, data, size, at + sizeof f, copied);
          ring_copy(&dyn, data, size, at + sizeof f + copied, sizeof dyn);
        }
        out->regs = (struct coz_unwind_regs){
            .pc = f[3], .sp = f[2], .bp = f[1], .bp_known = true};
        coz_stack_view_direct(&out->stack, f[2], dyn <= copied ? dyn : copied,
                              s->kstack);
        out->weight_ns = coz_config.PERIOD;
        s->kernel_samples++;
        found = true;
      }
    }
    tail += e.size;
  }
  __atomic_store_n(&h->data_tail, tail, __ATOMIC_RELEASE);
  return found;
}
