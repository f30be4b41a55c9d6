/* A library built with the pass: its lock calls go to __coz_* checkpoints,
 * which resolve to the executable's runtime when it exports them, and to
 * the library's own fallbacks otherwise. */
#include "coz.h"
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

long dso_add(long v) {
  pthread_mutex_lock(&lock);
  total += v;
  COZ_PROGRESS_NAMED("dso-add");
  pthread_mutex_unlock(&lock);
  return total;
}
