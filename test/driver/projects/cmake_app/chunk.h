/* chunk.h: one chunk of register-only LCG work. */
#ifndef CHUNK_H
#define CHUNK_H

#include <stdint.h>

uint64_t chunk_work(uint64_t seed);

#endif
