/* suggest_cmd.h: the `coz-report suggest` subcommand. */
#ifndef COZ_REPORT_SUGGEST_CMD_H
#define COZ_REPORT_SUGGEST_CMD_H

int cr_suggest_main(int argc, char **argv);

#endif /* COZ_REPORT_SUGGEST_CMD_H */
