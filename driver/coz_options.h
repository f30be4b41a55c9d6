/* coz_options.h: the driver's own --coz-* options.
 *
 * They are consumed here (clang never sees them). Those meant for the LLVM
 * pass are handed over in the environment variable COZ_PASS_ARGS, one option
 * per line (docs/design.md, contract 3), so plain clang users can set the
 * same variable by hand. */
#ifndef COZ_DRIVER_COZ_OPTIONS_H
#define COZ_DRIVER_COZ_OPTIONS_H

#include "arg_list.h"

#include <stdbool.h>
#include <stdio.h>

#define COZ_OPTION_PREFIX "--coz-"

struct coz_options {
  struct arg_list pass_args; /* validated options for the pass, in order */
  bool help;                 /* --coz-help: list the options and stop */
  bool verbose;              /* --coz-verbose: show clang's command line */
};

static inline bool is_coz_option(const char *arg) {
  return arg[0] == '-' && arg[1] == '-' && arg[2] == 'c' && arg[3] == 'o' &&
         arg[4] == 'z' && arg[5] == '-';
}

/* Records one --coz-* argument. A malformed or unknown option ends the
 * driver with one line saying what to write instead. */
void coz_options_consume(struct coz_options *opts, const char *arg,
                         const char *tool);

void coz_options_print_help(FILE *out, const char *tool);

/* The COZ_PASS_ARGS value: `inherited` (the variable's current value, may be
 * NULL) followed by the driver's pass options, each ending with a newline.
 * Returns NULL when there is nothing to pass. */
char *coz_options_pass_env(const struct coz_options *opts,
                           const char *inherited);

#endif
