/* output.h: the profile (docs/design.md, contract 5). Records are built in
 * memory and each block goes out in ONE write() on an O_APPEND descriptor,
 * so concurrent processes appending to one file never interleave. */
#ifndef COZ_OUTPUT_H
#define COZ_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct coz_out {
  char *buf;
  size_t len, cap;
  bool failed; /* out of memory: the block is dropped */
  void *json;  /* json_t object of the current line (COZ_FORMAT=json) */
};

/* Checks that COZ_OUTPUT can be created or appended to, without creating
 * it, and keeps its absolute path. False after one line on stderr (an
 * error when the user set COZ_OUTPUT, else a notice: util.h). */
bool coz_output_prepare(bool explicit);
/* Before main (fd_floor.h): opens an existing profile for the appends
 * and for one read of the profile so far, so that neither takes a
 * descriptor number the program would have got; a profile created later
 * is opened at its first write. */
void coz_output_preopen(void);
/* The descriptor for reading the profile so far, opened before main, or
 * -1; once (the caller closes it). */
int coz_output_take_reader(void);
/* The absolute path of the profile. */
const char *coz_output_path(void);

/* Starts a line of the given type ("experiment", "samples", ...). */
void coz_out_begin(struct coz_out *o, const char *type);
void coz_out_str(struct coz_out *o, const char *key, const char *value);
void coz_out_u64(struct coz_out *o, const char *key, uint64_t value);
void coz_out_double(struct coz_out *o, const char *key, double value);
/* Appends finished lines (another block's buffer) as they are. */
void coz_out_raw(struct coz_out *o, const char *s, size_t n);
/* Ends the line. */
void coz_out_end(struct coz_out *o);
/* Appends everything built so far to the profile in one write() (creating
 * the file) and resets the buffer. */
void coz_out_flush(struct coz_out *o);
void coz_out_free(struct coz_out *o);

#endif /* COZ_OUTPUT_H */
