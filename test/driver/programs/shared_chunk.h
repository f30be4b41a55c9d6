/* The shared library half of the -shared test: the work and a locked count
 * of finished chunks live in libchunk.so, the threads in the executable. */
#ifndef SHARED_CHUNK_H
#define SHARED_CHUNK_H

#include <stdint.h>

uint64_t chunk_work(uint64_t seed);
/* Records a finished chunk under the library's own mutex (a checkpoint the
 * library's code reaches the executable's runtime through). */
void chunk_done(void);
int chunks_done(void);

#endif
