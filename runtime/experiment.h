/* experiment.h: the profiler thread and the state it shares with the
 * sample processing of every thread. */
#ifndef COZ_EXPERIMENT_H
#define COZ_EXPERIMENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct coz_line;
struct coz_line_range;

/* The running experiment's line, NULL between experiments. Published after
 * coz_exp_delay_ns, cleared before it changes. */
extern _Atomic(struct coz_line *) coz_exp_selected;
/* With COZ_FIXED_LINE=file:lo-hi, those lines, all of which count as the
 * selected line; NULL otherwise. Set before the first experiment. */
extern const struct coz_line_range *_Atomic coz_exp_range;
/* Delay per sample in the selected line: speedup x period (ns). */
extern _Atomic uint64_t coz_exp_delay_ns;
/* Samples that fell in the selected line during the experiment, and in
 * any line of the scope. */
extern _Atomic uint64_t coz_exp_selected_samples;
extern _Atomic uint64_t coz_exp_samples;
/* True while the profiler waits for a line: the first in-scope line any
 * thread samples is stored into coz_exp_candidate. */
extern _Atomic bool coz_exp_selecting;
extern _Atomic(struct coz_line *) coz_exp_candidate;

/* The profiler's body (profiler_host.h runs it). */
void *coz_profiler_main(void *arg);
/* At exit (any thread): stop the profiler thread, write the experiment in
 * flight, the sample and runtime totals, the shutdown record and the exit
 * message. Runs once. */
void coz_profiler_shutdown(void);

#endif /* COZ_EXPERIMENT_H */
