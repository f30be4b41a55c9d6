/* direct_calls.c: the direct table (direct_calls.h). */
#include "direct_calls.h"
#include "abi.h"
#include "real.h"

COZ_EXPORT struct coz_real_fns __coz_direct;

/* A row still NULL (a function not resolved) sends its calls through the
 * checkpoint, which resolves it. */
void coz_direct_calls(bool direct) {
#define DIRECT(NAME)                                                           \
  __atomic_store_n(&__coz_direct.NAME, direct ? coz_real.NAME : NULL,          \
                   __ATOMIC_RELAXED);
#define WAKE DIRECT
#define BLOCK DIRECT
#define CREATE(NAME)
#define EXIT(NAME)
#define COZ_CHECKPOINT(ROLE, RET, NAME, ...) ROLE(NAME)
#include "checkpoints.def"
#undef COZ_CHECKPOINT
#undef EXIT
#undef CREATE
#undef BLOCK
#undef WAKE
#undef DIRECT
}
