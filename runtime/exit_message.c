/* exit_message.c: tells the user what the run produced. The most common
 * disappointment with a causal profiler is an empty profile, so when no
 * progress point was reached the message says so and what to do, and when
 * the program has none but candidate points stood in (abi.h), it names the
 * best one as an option to rebuild with. */
#include "exit_message.h"
#include "candidates.h"
#include "config.h"
#include "output.h"
#include "progress.h"
#include "records.h"
#include "util.h"

#include <stdlib.h>

static unsigned long experiments;
static const struct coz_line **lines;
static size_t n_lines, cap_lines;

void coz_exit_message_count(const struct coz_line *line) {
  experiments++;
  for (size_t i = 0; i < n_lines; i++)
    if (lines[i] == line)
      return;
  if (n_lines == cap_lines) {
    size_t cap = cap_lines ? cap_lines * 2 : 64;
    const struct coz_line **v = realloc(lines, cap * sizeof *v);
    if (!v)
      return;
    lines = v;
    cap_lines = cap;
  }
  lines[n_lines++] = line;
}

void coz_exit_message_print(void) {
  if (!coz_notices_shown())
    return;
  if (coz_records_started() && experiments == 0) {
    coz_log_notice("the run ended before its first experiment (COZ_EXPERIMENT"
                   "=%llu ms); only its progress counts were appended to %s",
                   (unsigned long long)coz_config.EXPERIMENT,
                   coz_output_path());
  } else if (coz_records_started()) {
    coz_log_notice("%lu experiment%s on %zu line%s; profile appended to %s",
                   experiments, experiments == 1 ? "" : "s", n_lines,
                   n_lines == 1 ? "" : "s", coz_output_path());
  } else if (!coz_progress_has_real()) {
    coz_log_notice("no profile written: the program has no progress point; "
                   "add COZ_PROGRESS (coz.h) where a unit of work completes, "
                   "or build with --coz-progress=FILE:LINE");
    return;
  } else {
    coz_log_notice("no profile written: the run ended before its first "
                   "experiment (COZ_EXPERIMENT=%llu ms); run it longer",
                   (unsigned long long)coz_config.EXPERIMENT);
    return;
  }
  struct coz_candidate_best best;
  if (!coz_progress_has_real() && coz_candidates_best(&best)) {
    coz_log_notice("the program has no progress point, so %zu candidate "
                   "point%s stood in; the steadiest: %s (%.0f visits/s, "
                   "%.0f%% spread over experiments): rebuild with it, or "
                   "rank them all with `coz-report suggest`",
                   best.candidates, best.candidates == 1 ? "" : "s",
                   best.option, best.per_s, 100 * best.spread);
    return;
  }
  if (!coz_records_any_progress())
    coz_log_notice("no progress point was reached, so the profile cannot "
                   "show any effect: add COZ_PROGRESS (coz.h) where a unit "
                   "of work completes, or build with "
                   "--coz-progress=FILE:LINE, and run long enough");
}
