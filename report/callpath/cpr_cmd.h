/* cpr_cmd.h: the `coz-report callpath` subcommand. */
#ifndef COZ_REPORT_CPR_CMD_H
#define COZ_REPORT_CPR_CMD_H

int cr_callpath_main(int argc, char **argv);

#endif /* COZ_REPORT_CPR_CMD_H */
