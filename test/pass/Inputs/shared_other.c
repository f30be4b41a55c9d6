/* Second module of marker_shared.c: more sites of the point "shared". */
#include "coz.h"

int other_sites(int n) {
  int done = 0;
  for (int i = 0; i < n; i++) {
    COZ_PROGRESS_NAMED("shared");
    done++;
  }
  return done;
}
