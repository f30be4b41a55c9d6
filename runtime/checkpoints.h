/* checkpoints.h: declarations of the runtime's __coz_NAME checkpoints. */
#ifndef COZ_CHECKPOINTS_H
#define COZ_CHECKPOINTS_H

#include "abi.h"
#include "real.h"

#define COZ_SIG(RET, NAME, PARAMS, ARGS) COZ_EXPORT RET __coz_##NAME PARAMS;
#define COZ_SIG_NORETURN(NAME, PARAMS, ARGS)                                   \
  COZ_EXPORT __attribute__((noreturn)) void __coz_##NAME PARAMS;
#include "checkpoint_sigs.def"
#undef COZ_SIG
#undef COZ_SIG_NORETURN

/* The calling thread is about to exit: execute owed delays (Table 1). */
void coz_checkpoint_exit_thread(void);

#endif /* COZ_CHECKPOINTS_H */
