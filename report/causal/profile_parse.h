/* profile_parse.h: profile files parsed into a merged profile. */
#ifndef COZ_REPORT_PROFILE_PARSE_H
#define COZ_REPORT_PROFILE_PARSE_H

#include "profile.h"

/* Parses a buffer holding a whole profile file named `name` (for messages).
 * Malformed records are reported as `name:LINE: reason` and skipped. */
void cr_profile_parse(struct cr_profile *p, const char *name, const char *buf,
                      size_t len, const struct cr_diag *diag);

/* Reads and parses a file. Returns 0, or -1 after printing one line saying
 * why the file cannot be read. */
int cr_profile_read_file(struct cr_profile *p, const char *path,
                         const struct cr_diag *diag);

#endif /* COZ_REPORT_PROFILE_PARSE_H */
