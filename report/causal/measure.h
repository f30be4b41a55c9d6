/* measure.h: the number a measure stands for, and its precision. */
#ifndef COZ_REPORT_MEASURE_H
#define COZ_REPORT_MEASURE_H

#include "profile.h"

/* The precision of a program speedup y = 1 - r (r = m_s/m_0, a ratio of
 * rates) measured from `visits` visits (arrivals for latency): counting
 * noise gives var(y) ~ r^2 / visits. r is floored at 0.05 so one
 * near-zero period cannot take all the weight. */
double cr_point_weight(double visits, double r);

/* The quantity whose relative change is the program speedup: the period
 * ns/visit, or the mean latency ns; 0 when undefined. */
double cr_measure_value(enum cr_point_kind kind, double duration, double delta,
                        double arrivals, double difference);

#endif /* COZ_REPORT_MEASURE_H */
