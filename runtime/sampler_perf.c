/* sampler_perf.c: per-thread sampling with perf_event_open on task-clock.
 *
 * Each thread gets its own event (pid = tid, any CPU), counting only while it
 * runs, sampling the user pc and user call chain every COZ_PERIOD ns of its
 * CPU time into a small mmap ring; on x86-64 also the user rip, rsp and rbp
 * and a copy of the top COZ_STACK_SNAPSHOT bytes of the stack, for CFI
 * unwinding through code without frame pointers (sample_processing.c). The
 * kernel signals the thread itself (F_SETOWN_EX/F_OWNER_TID + F_SETSIG) on
 * every sample; the core processes the ring every COZ_BATCH signals and at
 * checkpoints, and every drain takes all that is there, so a lost signal only
 * delays processing a little. The first period has a random length (see
 * coz_sampler_first_period); the first signal then switches the event to the
 * regular period. */
#include "config.h"
#include "sampler.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

static long perf_open(struct perf_event_attr *attr, pid_t tid) {
  return syscall(SYS_perf_event_open, attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

#if defined(__x86_64__)
/* The user registers the stepper needs; records list them in bit order. */
#define USER_REGS                                                              \
  ((1ull << PERF_REG_X86_BP) | (1ull << PERF_REG_X86_SP) |                     \
   (1ull << PERF_REG_X86_IP))
#define HAVE_USER_REGS 1
#else
#define HAVE_USER_REGS 0
#endif

/* with_regs: also sample the user registers and stack (x86-64). */
static void fill_attr(struct perf_event_attr *attr, bool with_regs) {
  memset(attr, 0, sizeof *attr);
  attr->size = sizeof *attr;
  attr->type = PERF_TYPE_SOFTWARE;
  attr->config = PERF_COUNT_SW_TASK_CLOCK;
  attr->sample_period = coz_config.PERIOD;
  attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
  attr->wakeup_events = 1;
  attr->exclude_kernel = 1;
  attr->exclude_hv = 1;
  attr->exclude_idle = 1;
  attr->exclude_callchain_kernel = 1;
  attr->sample_max_stack = COZ_MAX_FRAMES;
#if HAVE_USER_REGS
  if (with_regs) {
    attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    attr->sample_regs_user = USER_REGS;
    attr->sample_stack_user = COZ_STACK_SNAPSHOT;
  }
#else
  (void)with_regs;
#endif
}

bool coz_perf_available(void) {
  struct perf_event_attr attr;
  fill_attr(&attr, false);
  attr.disabled = 1;
  long fd = perf_open(&attr, 0);
  if (fd < 0)
    return false;
  close((int)fd);
  return true;
}

/* Data pages per ring, largest first: the per-user mlock budget
 * (perf_event_mlock_kb) is shared by all threads, so later threads degrade to
 * smaller rings instead of going unsampled. */
static const size_t ring_pages[] = {4, 2, 1};

bool coz_perf_start(struct coz_sampler_thread *s, pid_t tid) {
  struct perf_event_attr attr;
  long fd = -1;
  /* Kernels before 4.8 reject sample_max_stack, kernels without user stack
   * dumps (or other targets) the registers and stack: try without them,
   * attributing by the kernel's frame-pointer chain only. */
  for (int attempt = 0; attempt < 4 && fd < 0; attempt++) {
    bool with_regs = attempt < 2;
    if (with_regs && !HAVE_USER_REGS)
      continue;
    fill_attr(&attr, with_regs);
    attr.disabled = 1;
    attr.sample_period = coz_sampler_first_period(tid);
    if (attempt % 2)
      attr.sample_max_stack = 0;
    fd = perf_open(&attr, tid);
    if (fd < 0 && errno != EINVAL)
      break;
  }
  if (fd < 0) {
    coz_log_verbose(1, "perf_event_open for thread %d: %s", (int)tid,
                    strerror(errno));
    return false;
  }
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  void *ring = MAP_FAILED;
  size_t bytes = 0;
  for (size_t i = 0; i < sizeof ring_pages / sizeof *ring_pages; i++) {
    bytes = (1 + ring_pages[i]) * page;
    ring = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
    if (ring != MAP_FAILED)
      break;
  }
  if (ring == MAP_FAILED) {
    coz_log_verbose(1, "perf ring for thread %d: %s", (int)tid,
                    strerror(errno));
    close((int)fd);
    return false;
  }
  struct f_owner_ex owner = {F_OWNER_TID, tid};
  if (fcntl((int)fd, F_SETOWN_EX, &owner) != 0 ||
      fcntl((int)fd, F_SETSIG, COZ_SAMPLE_SIGNAL) != 0 ||
      fcntl((int)fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 ||
      ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    coz_log_verbose(1, "perf signal setup for thread %d: %s", (int)tid,
                    strerror(errno));
    munmap(ring, bytes);
    close((int)fd);
    return false;
  }
  s->fd = (int)fd;
  s->ring = ring;
  s->ring_bytes = bytes;
  s->perf_regs = (attr.sample_type & PERF_SAMPLE_STACK_USER) != 0;
  return true;
}

bool coz_perf_on_signal(struct coz_sampler_thread *s) {
  /* Restarts the period now, right after the sample, with a jittered
   * length (the first period was random too). */
  if (!s->ring)
    return false;
  uint64_t period = coz_sampler_next_period(s);
  ioctl(s->fd, PERF_EVENT_IOC_PERIOD, &period);
  s->phase_done = true;
  struct perf_event_mmap_page *meta = s->ring;
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  return head - meta->data_tail >= meta->data_size / 2;
}

void coz_perf_stop(struct coz_sampler_thread *s) {
  if (s->ring) {
    ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
    munmap(s->ring, s->ring_bytes);
    close(s->fd);
  }
  s->ring = NULL;
  s->fd = -1;
}

/* Reads the 8-byte word at byte offset off of the ring's data area; records
 * may wrap around its end. */
static inline uint64_t ring_word(const unsigned char *data, uint64_t mask,
                                 uint64_t off) {
  uint64_t v;
  uint64_t at = off & mask;
  if (at + 8 <= mask + 1) {
    memcpy(&v, data + at, 8);
  } else {
    unsigned char tmp[8];
    for (int i = 0; i < 8; i++)
      tmp[i] = data[(off + (uint64_t)i) & mask];
    memcpy(&v, tmp, 8);
  }
  return v;
}

/* Reads the registers and the stack copy of the sample record at tail
 * (size bytes), whose fields from byte pos on are { u64 abi; u64
 * regs[3]; } and { u64 size; char data[size]; u64 dyn_size; }. The stack
 * view points into the ring (two pieces when the copy wraps its end);
 * fields that do not fit the record leave the sample without registers. */
static void read_regs_and_stack(const unsigned char *data, uint64_t mask,
                                uint64_t tail, uint64_t size, uint64_t pos,
                                struct coz_sample *out) {
  if (pos + 8 > size)
    return;
  uint64_t abi = ring_word(data, mask, tail + pos);
  pos += 8;
  if (abi != PERF_SAMPLE_REGS_ABI_64 || pos + 32 > size)
    return; /* no user registers (or a 32-bit task) */
  uint64_t bp = ring_word(data, mask, tail + pos);
  uint64_t sp = ring_word(data, mask, tail + pos + 8);
  uint64_t ip = ring_word(data, mask, tail + pos + 16);
  uint64_t copied = ring_word(data, mask, tail + pos + 24);
  pos += 32;
  uint64_t dyn = 0;
  if (copied > 0 && copied <= size - pos && size - pos - copied >= 8)
    dyn = ring_word(data, mask, tail + pos + copied);
  if (dyn > copied)
    dyn = 0;
  out->has_regs = true;
  out->regs = (struct coz_unwind_regs){ip, sp, bp, true, false};
  uint64_t at = (tail + pos) & mask, ring_size = mask + 1;
  out->stack.base = sp;
  out->stack.size = dyn;
  out->stack.first = dyn < ring_size - at ? dyn : ring_size - at;
  out->stack.seg[0] = data + at;
  out->stack.seg[1] = data;
}

size_t coz_perf_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                      void *ctx) {
  if (!s->ring)
    return 0;
  struct perf_event_mmap_page *meta = s->ring;
  const unsigned char *data =
      (const unsigned char *)s->ring + meta->data_offset;
  uint64_t mask = meta->data_size - 1;
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  size_t n = 0;
  uint64_t ips[COZ_MAX_FRAMES + 1];
  while (tail < head) {
    uint64_t hdr = ring_word(data, mask, tail);
    uint32_t type = (uint32_t)hdr;
    uint16_t size = (uint16_t)(hdr >> 48);
    if (size < 8 || tail + size > head)
      break; /* corrupt or partial: drop the rest */
    if (type == PERF_RECORD_SAMPLE && size >= 24) {
      size_t k = 0;
      ips[k++] = ring_word(data, mask, tail + 8);
      uint64_t nr = ring_word(data, mask, tail + 16);
      bool whole = nr <= (uint64_t)(size - 24) / 8;
      if (!whole)
        nr = (uint64_t)(size - 24) / 8;
      for (uint64_t i = 0; i < nr && k < COZ_MAX_FRAMES + 1; i++) {
        uint64_t ip = ring_word(data, mask, tail + 24 + 8 * i);
        /* Skip the PERF_CONTEXT_* markers and the copy of the sampled pc. */
        if (ip >= (uint64_t)PERF_CONTEXT_MAX || (k == 1 && ip == ips[0]))
          continue;
        ips[k++] = ip;
      }
      struct coz_sample sample = {ips, k, coz_config.PERIOD, false, {0}, {0}};
      if (s->perf_regs && whole)
        read_regs_and_stack(data, mask, tail, size, 24 + 8 * nr, &sample);
      fn(ctx, &sample);
      n++;
    }
    tail += size;
  }
  __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
  return n;
}
