/* sampler_perf.c: per-thread sampling with perf_event_open on task-clock.
 *
 * Each thread gets its own event (pid = tid, any CPU), counting its CPU
 * time in user and kernel mode, overflowing every period in user mode only
 * (exclude_kernel: a signal raised inside a system call could cut a sleep
 * short; sampler_kernel.c samples the kernel's part). The kernel signals
 * the thread itself on every overflow (F_SETOWN_EX/F_OWNER_TID +
 * F_SETSIG): the signal's context is the sample
 * (sampler_context.c). The event has no ring buffer, so starting a thread's
 * sampler costs one perf_event_open, three fcntl and one ioctl, and every
 * REARM_EVERY-th sample one ioctl (the next, jittered, period). */
#include "config.h"
#include "fd_floor.h"
#include "sampler_perf.h"
#include "sampler_period.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>

long coz_perf_open(struct perf_event_attr *attr, pid_t tid) {
  return syscall(SYS_perf_event_open, attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

void coz_perf_task_clock(struct perf_event_attr *attr, uint64_t period) {
  memset(attr, 0, sizeof *attr);
  attr->size = sizeof *attr;
  attr->type = PERF_TYPE_SOFTWARE;
  attr->config = PERF_COUNT_SW_TASK_CLOCK;
  attr->sample_period = period;
  attr->disabled = 1;
  attr->exclude_hv = 1;
  attr->exclude_idle = 1;
}

static void fill_attr(struct perf_event_attr *attr, uint64_t period) {
  coz_perf_task_clock(attr, period);
  attr->sample_type = PERF_SAMPLE_IP;
  attr->wakeup_events = 1;
  attr->exclude_kernel = 1;
}

bool coz_perf_available(void) {
  struct perf_event_attr attr;
  fill_attr(&attr, coz_config.PERIOD);
  long fd = coz_perf_open(&attr, 0);
  if (fd < 0)
    return false;
  coz_fd_close(fd);
  return true;
}

/* The shortest first period used. Near the kernel's 10 us floor a
 * task-clock event can take over its thread: timer interrupts and signals
 * then keep it from ever reaching its first sample's handler (docs/results.md,
 * "Design figures"). A first period below it is lengthened by a whole period
 * instead, and the thread's first sample then stands for two: the skipped
 * sample would have fallen in the thread's first 100 us, mostly its start-up
 * (pthread's and the runtime's), and its weight goes to the nearest sample that
 * exists. */
#define MIN_FIRST_PERIOD 100000u

bool coz_perf_start(struct coz_sampler_thread *s, pid_t tid) {
  struct perf_event_attr attr;
  uint64_t first = coz_sampler_first_period(tid);
  s->first_weight = 1;
  if (first < MIN_FIRST_PERIOD && coz_config.PERIOD >= 2 * MIN_FIRST_PERIOD) {
    first += coz_config.PERIOD;
    s->first_weight = 2;
  }
  fill_attr(&attr, first);
  long fd = coz_fd_floor((int)coz_perf_open(&attr, tid));
  if (fd < 0)
    return false;
  struct f_owner_ex owner = {F_OWNER_TID, tid};
  if (fcntl((int)fd, F_SETOWN_EX, &owner) != 0 ||
      fcntl((int)fd, F_SETSIG, COZ_SAMPLE_SIGNAL) != 0 ||
      fcntl((int)fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0 ||
      ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
    int e = errno;
    coz_fd_close(fd);
    errno = e;
    return false;
  }
  s->fd = (int)fd;
  s->rearm_left = 0;
  return true;
}

/* Samples between two draws of the period. A new period is an ioctl that
 * stops and restarts the event's hrtimer: on this project's VM that cost
 * 1.2-1.4% of a thread's time at 1 ms periods, more than the signal
 * (docs/results.md, "The period drawn every 8 samples"). Between draws the
 * kernel keeps the period, counted from each overflow, so the samples of
 * a run of 8 are evenly spaced and only each run's phase and spacing are
 * random: a loop in step with one spacing holds the samples at one place
 * for 8 samples at most, where the draws exist to keep it from holding
 * them for long stretches (sampler_period.h). */
#define REARM_EVERY 8

uint64_t coz_perf_rearm(struct coz_sampler_thread *s) {
  if (s->rearm_left > 0) {
    s->rearm_left--;
    return s->armed_ns; /* the period runs on from the overflow */
  }
  /* Restarts the period now, right after the sample, with a jittered
   * length; the first sample always draws (its period was the random first
   * one). */
  uint64_t period = coz_sampler_next_period(s);
  ioctl(s->fd, PERF_EVENT_IOC_PERIOD, &period);
  s->rearm_left = REARM_EVERY - 1;
  return period;
}

void coz_perf_suspend(struct coz_sampler_thread *s, bool suspend) {
  /* A disabled event keeps what is left of its period. */
  ioctl(s->fd, suspend ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0);
}

void coz_perf_stop(struct coz_sampler_thread *s) {
  if (s->fd >= 0)
    coz_fd_close(s->fd); /* also disables the event */
  s->fd = -1;
}
