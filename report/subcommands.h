/* subcommands.h: coz-report's commands. main.c dispatches on argv[1]; a new
 * subcommand is one entry in cr_subcommands (main.c) and its own file. */
#ifndef COZ_REPORT_SUBCOMMANDS_H
#define COZ_REPORT_SUBCOMMANDS_H

/* Each gets argv with argv[0] = "coz-report <name>" style program name. */
typedef int (*cr_command_fn)(int argc, char **argv);

struct cr_subcommand {
  const char *name;
  cr_command_fn run;
};

/* The default command: analyse profiles (report_cmd.c). */
int cr_report_main(int argc, char **argv);

/* Parses a whole number 0..max given to option `opt`; on a bad value,
 * prints one line saying what is wanted and returns -1 (report_cmd.c). */
int cr_parse_uint(const char *opt, const char *s, unsigned long max,
                  unsigned long *out);
/* The profile files named after the options (argv[first..argc)), or
 * profile.coz when none is; their count in *n (report_cmd.c). */
const char *const *cr_input_files(int argc, char **argv, int first,
                                  size_t *n);

#endif /* COZ_REPORT_SUBCOMMANDS_H */
