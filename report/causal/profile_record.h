/* profile_record.h: one record of a profile, split into its fields. */
#ifndef COZ_REPORT_PROFILE_RECORD_H
#define COZ_REPORT_PROFILE_RECORD_H

#include "profile.h"

#define CR_MAX_FIELDS 32

/* One record, whatever its syntax: a type and key/value strings. Strings
 * point into `arena` and are NUL-terminated. */
struct cr_record {
  const char *type;
  size_t n_fields;
  const char *key[CR_MAX_FIELDS];
  const char *val[CR_MAX_FIELDS];
  char *arena;
  size_t arena_len, arena_cap;
  char err[256]; /* the message of the last failed parse */
};

void cr_record_init(struct cr_record *r);
void cr_record_free(struct cr_record *r);

/* Splits one line (without its '\n') into a record. Returns NULL, or a
 * static/arena string saying what is wrong with the line. */
const char *cr_record_parse_line(struct cr_record *r, const char *line,
                                 size_t len);

/* The value of `key`, or NULL. */
const char *cr_record_get(const struct cr_record *r, const char *key);

#endif /* COZ_REPORT_PROFILE_RECORD_H */
