/* report_cmd.h: the default subcommand, `coz-report [options] [FILES...]`,
 * and the pieces of its command line that `coz-report suggest` shares. */
#ifndef COZ_REPORT_REPORT_CMD_H
#define COZ_REPORT_REPORT_CMD_H

#include <stddef.h>

/* The default command: analyse profiles. */
int cr_report_main(int argc, char **argv);

/* Malformed-record messages shown per file (--max-errors' default). */
enum { CR_MAX_ERRORS_DEFAULT = 20 };

/* Parses a whole number 0..max given to option `opt`; on a bad value,
 * prints one line saying what is wanted and returns -1. */
int cr_parse_uint(const char *opt, const char *s, unsigned long max,
                  unsigned long *out);
/* The profile files named after the options (argv[first..argc)), or
 * profile.coz when none is; their count in *n. */
const char *const *cr_input_files(int argc, char **argv, int first, size_t *n);

#endif /* COZ_REPORT_REPORT_CMD_H */
