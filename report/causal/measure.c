/* measure.c: the number a measure stands for and how much to trust it;
 * the analysis and the bootstrap both take them from here. */
#include "measure.h"

#include <math.h>

/* The quantity whose relative change is the program speedup: the period
 * between visits (throughput) or the mean latency W = L / lambda with
 * lambda = arrivals / duration (latency, Little's law). 0 when undefined. */
double cr_measure_value(enum cr_point_kind kind, double duration, double delta,
                        double arrivals, double difference) {
  double v;
  if (kind == CR_THROUGHPUT)
    v = delta > 0 ? duration / delta : 0;
  else
    v = arrivals > 0 && duration > 0 ? difference / (arrivals / duration) : 0;
  return isfinite(v) && v > 0 ? v : 0;
}

/* Where a measure's period counts as stalled (measure.h). */
#define STALL_RATIO 2.0

double cr_point_weight(double visits, double r) {
  double w = r > STALL_RATIO ? visits * (STALL_RATIO / r) * (STALL_RATIO / r)
                             : visits;
  return isfinite(w) && w > 0 ? w : 0;
}
