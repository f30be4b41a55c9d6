/* direct_calls.h: the direct table, with which the checkpoints' entries
 * (__coz_NAME, __coz_try_LOCK) pass a WAKE or BLOCK call straight on to the
 * real function while the checkpoint has nothing to do.
 *
 * The entry loads its row and, when set, tail-calls it: a direct call of
 * the entry plus one load, one test and one jump through a register, the
 * shape of a call through the PLT, which costs nothing measurable against
 * it (docs/results.md, "The direct table moves into the runtime"). An
 * indirect call made by the program's call site instead cost 9-18% in an
 * uncontended lock loop. */
#ifndef COZ_DIRECT_CALLS_H
#define COZ_DIRECT_CALLS_H

#include "real.h"

#include <stdbool.h>

/* The real function of each row while the checkpoint has nothing to do,
 * else NULL; CREATE and EXIT rows stay NULL (they must reach the runtime
 * even off: a thread that a library's constructor starts before the
 * runtime's own constructor is what initialises it). Read with
 * COZ_DIRECT(NAME) in any thread, signal handlers included. Global for
 * test/pass/direct_table.c, which reads it by its symbol. */
extern struct coz_real_fns coz_direct;
#define COZ_DIRECT(NAME) __atomic_load_n(&coz_direct.NAME, __ATOMIC_RELAXED)

/* Whether the entries pass calls straight on: while the runtime does not
 * profile (init.c), and while the program has one thread, which can neither
 * owe a delay nor wake or wait for another (profiler_host.c). Any thread,
 * no allocation; set it before the state it describes begins: a new thread
 * must find the rows cleared. */
void coz_direct_calls(bool direct);

#endif /* COZ_DIRECT_CALLS_H */
