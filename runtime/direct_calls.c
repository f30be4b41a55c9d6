/* direct_calls.c: the direct table (direct_calls.h). */
#include "direct_calls.h"
#include "callpath/callpath.h"

struct coz_real_fns coz_direct;

/* A row still NULL (a function not resolved) sends its calls through the
 * checkpoint, which resolves it. The wall-clock call path times each
 * blocking call in its checkpoint (cp_wall.c), so while it runs the BLOCK
 * rows stay NULL: the entries then need no second test of their own. */
void coz_direct_calls(bool direct) {
  bool block = direct && !atomic_load(&coz_callpath_wall);
#define SET(NAME, ON)                                                          \
  __atomic_store_n(&coz_direct.NAME, (ON) ? coz_real.NAME : NULL,              \
                   __ATOMIC_RELAXED);
#define WAKE(NAME) SET(NAME, direct)
#define BLOCK(NAME) SET(NAME, block)
#define CREATE(NAME)
#define EXIT(NAME)
#define COZ_CHECKPOINT(ROLE, RET, NAME, ...) ROLE(NAME)
#include "checkpoints.def"
#undef COZ_CHECKPOINT
#undef EXIT
#undef CREATE
#undef BLOCK
#undef WAKE
#undef SET
}
