/* fd_channels.c: see fd_channels.h.
 *
 * Two tables. Per descriptor (below COZ_FD_TRACKED; higher ones are not
 * tracked and keep Coz's rule): the channel it reads from and the channel
 * it writes to (0: none). Per channel, hashed into COZ_STAMP_SLOTS slots:
 * the largest delay count of a thread that wrote into it, packed with 16
 * bits of the channel id so that a slot reused by another channel is
 * recognised (one 64-bit word: readers never see a torn stamp). */
#include "fd_channels.h"

#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>

#define COZ_FD_TRACKED 65536
#define COZ_STAMP_SLOTS 4096
#define TAG_SHIFT 48
#define DELAY_MASK ((1ull << TAG_SHIFT) - 1) /* 78 hours of delays, in ns */

struct fd_entry {
  _Atomic uint32_t read_chan;
  _Atomic uint32_t write_chan;
};

/* Mapped when the first channel is made (512 KiB of address space, pages
 * touched only for the descriptors used), never unmapped. */
static struct fd_entry *_Atomic table;
static _Atomic uint64_t stamps[COZ_STAMP_SLOTS];
static _Atomic uint32_t last_chan;

static struct fd_entry *entries(bool create) {
  struct fd_entry *t = atomic_load_explicit(&table, memory_order_acquire);
  if (t || !create)
    return t;
  size_t bytes = COZ_FD_TRACKED * sizeof(struct fd_entry);
  void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED)
    return NULL;
  struct fd_entry *expected = NULL;
  if (!atomic_compare_exchange_strong(&table, &expected, mem)) {
    munmap(mem, bytes); /* another thread mapped it first */
    return expected;
  }
  return mem;
}

static struct fd_entry *entry(int fd, bool create) {
  if (fd < 0 || fd >= COZ_FD_TRACKED)
    return NULL;
  struct fd_entry *t = entries(create);
  return t ? &t[fd] : NULL;
}

static uint32_t new_chan(void) {
  uint32_t c = atomic_fetch_add(&last_chan, 1) + 1;
  if (c == 0) /* wrapped: 0 means "no channel" */
    c = atomic_fetch_add(&last_chan, 1) + 1;
  atomic_store_explicit(&stamps[c % COZ_STAMP_SLOTS], 0, memory_order_relaxed);
  return c;
}

static void set(int fd, uint32_t read_chan, uint32_t write_chan) {
  struct fd_entry *e = entry(fd, true);
  if (e) {
    atomic_store_explicit(&e->read_chan, read_chan, memory_order_release);
    atomic_store_explicit(&e->write_chan, write_chan, memory_order_release);
  }
}

void coz_fd_pipe(int rfd, int wfd) {
  uint32_t c = new_chan();
  set(rfd, c, 0);
  set(wfd, 0, c);
}

void coz_fd_socketpair(int a, int b) {
  uint32_t a_to_b = new_chan(), b_to_a = new_chan();
  set(a, b_to_a, a_to_b);
  set(b, a_to_b, b_to_a);
}

void coz_fd_eventfd(int fd) {
  uint32_t c = new_chan();
  set(fd, c, c);
}

void coz_fd_dup(int oldfd, int newfd) {
  struct fd_entry *from = entry(oldfd, false);
  if (from)
    set(newfd, atomic_load(&from->read_chan), atomic_load(&from->write_chan));
  else
    coz_fd_forget(newfd);
}

void coz_fd_forget(int fd) {
  struct fd_entry *e = entry(fd, false);
  if (e) {
    atomic_store_explicit(&e->read_chan, 0, memory_order_release);
    atomic_store_explicit(&e->write_chan, 0, memory_order_release);
  }
}

static uint64_t tag_of(uint32_t chan) {
  return (uint64_t)(chan & 0xffffu) << TAG_SHIFT;
}

void coz_fd_stamp_write(int fd, uint64_t delay) {
  struct fd_entry *e = entry(fd, false);
  uint32_t c =
      e ? atomic_load_explicit(&e->write_chan, memory_order_acquire) : 0;
  if (!c)
    return;
  uint64_t want = tag_of(c) | (delay < DELAY_MASK ? delay : DELAY_MASK);
  _Atomic uint64_t *slot = &stamps[c % COZ_STAMP_SLOTS];
  uint64_t old = atomic_load_explicit(slot, memory_order_relaxed);
  /* Keep the largest count of this channel; replace another channel's. */
  while (((old & ~DELAY_MASK) != tag_of(c) || old < want) &&
         !atomic_compare_exchange_weak_explicit(
             slot, &old, want, memory_order_release, memory_order_relaxed)) {
  }
}

bool coz_fd_read_stamp(int fd, uint64_t *delay) {
  struct fd_entry *e = entry(fd, false);
  uint32_t c =
      e ? atomic_load_explicit(&e->read_chan, memory_order_acquire) : 0;
  if (!c)
    return false;
  uint64_t v =
      atomic_load_explicit(&stamps[c % COZ_STAMP_SLOTS], memory_order_acquire);
  if ((v & ~DELAY_MASK) != tag_of(c) || (v & DELAY_MASK) == 0)
    return false;
  *delay = v & DELAY_MASK;
  return true;
}
