/* main.c: coz-report's entry point, a dispatcher.
 *
 * `coz-report [options] [FILES...]` analyses profiles; `coz-report NAME ...`
 * runs subcommand NAME. Add a subcommand by adding a row here and its
 * function in its own file.
 */
#include "callpath/cpr_cmd.h"
#include "causal/report_cmd.h"
#include "causal/suggest_cmd.h"

#include <string.h>

/* Each gets argv with argv[0] = "coz-report <name>" style program name. */
typedef int (*cr_command_fn)(int argc, char **argv);

struct cr_subcommand {
  const char *name;
  cr_command_fn run;
};

static const struct cr_subcommand cr_subcommands[] = {
    {"report", cr_report_main},     /* analyse profiles (the default) */
    {"callpath", cr_callpath_main}, /* call-path profiles of a resource */
    {"suggest", cr_suggest_main},   /* progress points to rebuild with */
};

int main(int argc, char **argv) {
  if (argc > 1) {
    for (size_t i = 0; i < sizeof cr_subcommands / sizeof *cr_subcommands; i++)
      if (strcmp(argv[1], cr_subcommands[i].name) == 0)
        return cr_subcommands[i].run(argc - 1, argv + 1);
  }
  return cr_report_main(argc, argv);
}
