/* exit_message.h: the one or two lines printed on stderr at exit. */
#ifndef COZ_EXIT_MESSAGE_H
#define COZ_EXIT_MESSAGE_H

struct coz_line;

/* Counts an experiment on line (profiler thread). */
void coz_exit_message_count(const struct coz_line *line);
/* Prints the summary as notices (util.h): what was written, or why
 * nothing was. */
void coz_exit_message_print(void);

#endif /* COZ_EXIT_MESSAGE_H */
