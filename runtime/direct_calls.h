/* direct_calls.h: the direct table (abi.h, COZ_DIRECT_SYMBOL), through
 * which the pass's call sites bypass the WAKE and BLOCK checkpoints. */
#ifndef COZ_DIRECT_CALLS_H
#define COZ_DIRECT_CALLS_H

#include <stdbool.h>

/* Whether the call sites call the real functions directly: while the
 * runtime does not profile (init.c), and while the program has one
 * thread, which can neither owe a delay nor wake or wait for another
 * (profiler_host.c). Any thread, no allocation; set it before the state it
 * describes begins: a new thread must find the rows cleared. */
void coz_direct_calls(bool direct);

#endif /* COZ_DIRECT_CALLS_H */
