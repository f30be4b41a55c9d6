/* response_file.h: GNU-style @file expansion, as clang does it on Linux.
 *
 * The driver must see every argument to pick the mode (compile, link, ...)
 * and to find its own --coz- options, even those hidden in response files
 * that build systems write for long command lines. */
#ifndef COZ_DRIVER_RESPONSE_FILE_H
#define COZ_DRIVER_RESPONSE_FILE_H

#include "arg_list.h"

/* Appends the arguments of response file `path` to `out`, expanding nested
 * @files (resolved against the working directory, as clang does). Returns
 * 0, or -1 when `path` cannot be read or decoded: clang then keeps "@path"
 * as a literal argument, and so does the caller. A file that includes
 * itself, directly or not, ends the driver with one line naming it. */
int response_file_expand(const char *path, struct arg_list *out,
                         const char *tool);

#endif
