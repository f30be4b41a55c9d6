/* cp_ring.c: context switches, sampled by the kernel into a perf ring
 * buffer with its user call chain, without signals. A signal sent when a
 * thread switches out to sleep would wake it: nanosleep, poll or sem_wait
 * would return EINTR early and change the program's behaviour. So the
 * counter writes PERF_SAMPLE_CALLCHAIN records (the kernel walks the user
 * stack by frame pointers, which code compiled with -fno-omit-frame-pointer
 * keeps; the caller of the libc function that made the system call is
 * usually missing, because libc's wrappers set up no frame) and the rings
 * are drained when their thread ends and at exit. The period is fixed (no
 * signal to re-arm it with jitter); a full ring drops samples, counted as
 * dropped. */
#include "abi.h"
#include "cp_internal.h"
#include "fd_floor.h"
#include "progress.h"
#include "util.h"

#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { CP_RINGS = 512, CP_RING_PAGES = 64 };

struct cp_ring {
  _Atomic int state; /* 0 free, 1 open, 2 being drained */
  int fd;
  void *base;
  size_t bytes;
  uint64_t period;
};

static struct cp_ring rings[CP_RINGS];

int cp_ring_open(uint64_t config, uint64_t period) {
  int slot = -1;
  for (int i = 0; i < CP_RINGS && slot < 0; i++) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&rings[i].state, &expected, 2))
      slot = i;
  }
  if (slot < 0)
    return -1;
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = config;
  a.sample_period = period;
  a.sample_type = PERF_SAMPLE_CALLCHAIN;
  a.exclude_callchain_kernel = 1;
  a.sample_max_stack = CP_MAX_DEPTH;
  a.exclude_hv = 1;
  /* A switch is counted in kernel mode: exclude_kernel would hide all. */
  long fd = coz_fd_floor(
      (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t bytes = (1 + CP_RING_PAGES) * page;
  void *base = MAP_FAILED;
  if (fd >= 0)
    base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
  if (base == MAP_FAILED) {
    if (fd >= 0)
      coz_fd_close((int)fd);
    atomic_store(&rings[slot].state, 0);
    return -1;
  }
  rings[slot].fd = (int)fd;
  rings[slot].base = base;
  rings[slot].bytes = bytes;
  rings[slot].period = period;
  atomic_store(&rings[slot].state, 1);
  return slot;
}

/* Copies len bytes at ring offset off (wrapping) into out. */
static void ring_copy(const unsigned char *data, size_t size, uint64_t off,
                      void *out, size_t len) {
  size_t start = (size_t)(off % size);
  size_t first = len < size - start ? len : size - start;
  memcpy(out, data + start, first);
  memcpy((unsigned char *)out + first, data, len - first);
}

static void drain(struct cp_ring *r) {
  struct perf_event_mmap_page *meta = r->base;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const unsigned char *data = (const unsigned char *)r->base + page;
  size_t size = r->bytes - page;
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  unsigned char rec[8 + 8 * (CP_MAX_DEPTH + 16)];
  while (tail + sizeof(struct perf_event_header) <= head) {
    struct perf_event_header h;
    ring_copy(data, size, tail, &h, sizeof h);
    if (h.size < sizeof h || tail + h.size > head)
      break;
    if (h.type == PERF_RECORD_LOST && h.size >= sizeof h + 16) {
      uint64_t lost[2];
      ring_copy(data, size, tail + sizeof h, lost, sizeof lost);
      atomic_fetch_add(&cp_dropped_samples[CP_CSW], lost[1]);
    } else if (h.type == PERF_RECORD_SAMPLE &&
               h.size <= sizeof h + sizeof rec) {
      ring_copy(data, size, tail + sizeof h, rec, h.size - sizeof h);
      uint64_t nr;
      memcpy(&nr, rec, 8);
      struct cp_stack st = {.depth = 0, .truncated = false};
      bool first = true;
      for (uint64_t i = 0; i < nr && 8 + 8 * (i + 1) <= h.size - sizeof h;
           i++) {
        uint64_t ip;
        memcpy(&ip, rec + 8 + 8 * i, 8);
        if (ip >= (uint64_t)PERF_CONTEXT_MAX)
          continue; /* a context marker */
        if (st.depth == CP_MAX_DEPTH) {
          st.truncated = true;
          break;
        }
        st.pc[st.depth++] = (uintptr_t)(first ? ip : ip - 1);
        first = false;
      }
      if (st.depth) {
        atomic_fetch_add(&cp_total_samples[CP_CSW], 1);
        cp_table_add(CP_CSW, &st, r->period);
      }
    }
    tail += h.size;
  }
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static uint64_t count_of(int fd) {
  uint64_t v = 0;
  if (syscall(SYS_read, fd, &v, sizeof v) != (long)sizeof v)
    return 0;
  return v;
}

/* Drains slot; with close, also totals its count and frees it. */
static void finish(int slot, bool close_it) {
  struct cp_ring *r = &rings[slot];
  int expected = 1;
  if (!atomic_compare_exchange_strong(&r->state, &expected, 2))
    return; /* free, or another thread is draining it */
  drain(r);
  if (!close_it) {
    atomic_store(&r->state, 1);
    return;
  }
  ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
  drain(r);
  atomic_fetch_add(&cp_total_weight[CP_CSW], count_of(r->fd));
  munmap(r->base, r->bytes);
  coz_fd_close(r->fd);
  atomic_store(&r->state, 0);
}

void cp_ring_close(int slot) {
  if (slot >= 0 && slot < CP_RINGS)
    finish(slot, true);
}

void cp_ring_close_all(void) {
  for (int i = 0; i < CP_RINGS; i++)
    finish(i, true);
}

/* coz-cc leaves frame pointers to the user: they made a call-heavy
 * program up to 15% slower (docs/results.md), and only these call chains
 * need them. */
void cp_ring_note_frame_pointers(void) {
  size_t frameless =
      coz_progress_modules_flagged(COZ_MODULE_OMITS_FRAME_POINTERS);
  if (frameless > 0)
    coz_log_notice("csw call paths: %zu of %zu modules built with coz-cc "
                   "omit frame pointers, so their context switches lose "
                   "callers; for whole paths add -fno-omit-frame-pointer",
                   frameless, coz_progress_modules());
}
