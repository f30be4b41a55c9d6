/* A library built with coz-cc and loaded with dlopen: its module registers
 * with the executable's runtime, so its lines join the default scope. */
#include "spin.h"
#include <coz.h>

uint64_t dl_work(uint64_t x) {
  SPIN(200000, x); /* LINE_DL */
  COZ_PROGRESS_NAMED("dl");
  return x;
}
