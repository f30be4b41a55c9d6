/* A stand-in for the runtime's counters of counted calls, for tests only:
 * strong definitions of __coz_count_heap/read/write that sum the bytes the
 * pass hands them (plus strlen(str), as the runtime does). They must win
 * over the pass's linkonce no-op fallbacks, in the executable and
 * (exported) for DSOs. */
#include <stdint.h>
#include <string.h>

static uint64_t sums[3];

static void add(int r, uint64_t bytes, const char *str) {
  sums[r] += bytes + (str ? strlen(str) : 0);
}

void __coz_count_heap(uint64_t bytes, const char *str) { add(0, bytes, str); }
void __coz_count_read(uint64_t bytes, const char *str) { add(1, bytes, str); }
void __coz_count_write(uint64_t bytes, const char *str) { add(2, bytes, str); }

/* The sums so far (the caller prints them: printing is counted too). */
void counted_sums(uint64_t *heap, uint64_t *read, uint64_t *write) {
  *heap = sums[0];
  *read = sums[1];
  *write = sums[2];
}
