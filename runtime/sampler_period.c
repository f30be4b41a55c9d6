/* sampler_period.c: the lengths of sampling periods, jittered (sampler_period.h
 * says why). */
#include "sampler_period.h"
#include "config.h"
#include "util.h"

uint64_t coz_sampler_next_period(struct coz_sampler_thread *s) {
  if (s->rng == 0)
    s->rng = coz_now_ns() | 1;
  uint64_t r = coz_xorshift64s(&s->rng);
  uint64_t period = coz_config.PERIOD;
  uint64_t next = period / 2 + r % (period ? period : 1);
  return next < 10000 ? 10000 : next;
}

uint64_t coz_sampler_first_period(pid_t tid) {
  /* splitmix64 of the thread id and the clock: independent per thread. */
  uint64_t z = coz_now_ns() ^ ((uint64_t)tid << 32);
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  uint64_t period = coz_config.PERIOD;
  uint64_t min = 10000; /* the kernel's floor for task-clock periods */
  return period <= min ? period : min + z % (period - min + 1);
}
