/* cli_scan.h: what a clang command line asks for.
 *
 * The driver adds flags by mode: instrumentation flags when something is
 * compiled, the runtime only when an executable is linked (never into a
 * shared library or relocatable object, so a process holds one runtime). It
 * reads the command line the way clang does, skipping option values so that
 * e.g. `-o -c` or `-MT -E` are not mistaken for modes. */
#ifndef COZ_DRIVER_CLI_SCAN_H
#define COZ_DRIVER_CLI_SCAN_H

#include "arg_list.h"

#include <stdbool.h>

struct cli_facts {
  bool preprocess_only;   /* -E, -M, -MM: no object, no link */
  bool compile_only;      /* -c, -S, -fsyntax-only, --precompile: no link */
  bool shared;            /* -shared (or -Wl,-shared): a DSO, no runtime */
  bool relocatable;       /* -r: a partial link, no runtime */
  bool static_link;       /* -static, -static-pie: use the --wrap runtime */
  bool no_default_libs;   /* -nostdlib, -nodefaultlibs: no libc under us */
  bool debug_info_chosen; /* the user picked a -g level (-g0 included) */
  bool language_pinned;   /* a -x other than "none" is in force at the end */
  int inputs;             /* files (or "-") clang will read */
  int assembly_inputs;    /* of those, plain assembly (.s, -x assembler) */
  int header_inputs;      /* of those, headers: clang precompiles, no link */
};

/* Scans fully expanded arguments (response files already inlined, --coz-*
 * options already removed). */
void cli_scan(const struct arg_list *args, struct cli_facts *facts);

/* Something goes through clang's compiler: instrumentation flags apply. */
bool cli_compiles(const struct cli_facts *facts);

/* The command ends in linking an executable: the runtime goes in. */
bool cli_links_executable(const struct cli_facts *facts);

#endif
