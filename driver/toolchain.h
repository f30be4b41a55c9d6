/* toolchain.h: where clang, the plugin, the runtime and coz.h are.
 *
 * Everything but clang is found relative to the driver's own executable
 * (/proc/self/exe), so one build works from the build tree, from the install
 * prefix, and through symlinks, with no paths baked in but clang's. */
#ifndef COZ_DRIVER_TOOLCHAIN_H
#define COZ_DRIVER_TOOLCHAIN_H

#include <stdbool.h>

struct toolchain {
  const char *clang;    /* program to exec (a path or a name for PATH) */
  char *plugin;         /* <prefix>/lib/coz-cc/libCozPass.so */
  char *runtime;        /* <prefix>/lib/coz-cc/libcoz-rt.a */
  char *static_runtime; /* <prefix>/lib/coz-cc/libcoz-rt-static.a */
  char *exports;        /* <prefix>/lib/coz-cc/coz-rt.exports */
  char *include_dir;    /* <prefix>/include/coz-cc */
};

/* Set while COZ_CC/COZ_CXX is asked for its version: a driver started with
 * it set is being probed by another driver and must not run anything. */
#define COZ_PROBE_VARIABLE "COZ_DRIVER_VERSION_PROBE"

/* Fills `tc` for the C (cxx=false) or C++ driver. Ends the driver with one
 * line when COZ_CC/COZ_CXX names a clang of another LLVM major than the
 * plugin's, or when the driver cannot tell where it is installed. */
void toolchain_locate(struct toolchain *tc, bool cxx, const char *tool);

/* Ends the driver with one line if `path` (a part of coz-cc) is missing. */
void toolchain_require(const char *path, const char *what, const char *tool);

#endif
