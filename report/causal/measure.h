/* measure.h: the number a measure stands for, and its precision. */
#ifndef COZ_REPORT_MEASURE_H
#define COZ_REPORT_MEASURE_H

#include "profile.h"

/* The weight in the fits of a program speedup y = 1 - r, r = m_s/m_0,
 * measured from `visits` visits (arrivals for latency): the visits as
 * counted, so the weighted mean of several measures' y is the y of their
 * experiments combined (sum visits y = visits - duration / m_0 for
 * throughput). A weight that grows with the measured rate lifts the fit
 * wherever the noise did: the precision visits / r^2 grew with the rate's
 * cube, and a flat line's slope interval lay above 0 three to four times
 * as often as it should (docs/report.md, A/A profiles). Past r = 2 (half
 * the baseline's rate: a stall, such as the load ending, not noise) the
 * weight falls as 1 / r^2, so one stalled experiment cannot swing a row. */
double cr_point_weight(double visits, double r);

/* The quantity whose relative change is the program speedup: the period
 * ns/visit, or the mean latency ns; 0 when undefined. */
double cr_measure_value(enum cr_point_kind kind, double duration, double delta,
                        double arrivals, double difference);

#endif /* COZ_REPORT_MEASURE_H */
