/* profile_internal.h: pieces shared by the profile parser's files. */
#ifndef COZ_REPORT_PROFILE_INTERNAL_H
#define COZ_REPORT_PROFILE_INTERNAL_H

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

/* Storage (profile_store.c). All return an index, or -1 when out of memory
 * (the caller reports it and skips the record). */
long cr_store_line(struct cr_profile *p, const char *name);
long cr_store_point(struct cr_profile *p, const char *name,
                    enum cr_point_kind kind);
long cr_store_experiment(struct cr_profile *p, const struct cr_experiment *e);
long cr_store_obs(struct cr_profile *p, const struct cr_obs *o);

#endif /* COZ_REPORT_PROFILE_INTERNAL_H */
