/* profile_store.h: a merged profile's storage: its tables of lines,
 * points, experiments and observations. */
#ifndef COZ_REPORT_PROFILE_STORE_H
#define COZ_REPORT_PROFILE_STORE_H

#include "profile.h"

void cr_profile_init(struct cr_profile *p);
void cr_profile_free(struct cr_profile *p);

/* Index of a line/point name, or -1. */
long cr_profile_find_point(const struct cr_profile *p, const char *name);

/* Storage, for the parser. All return an index, or -1 when out of memory
 * (the caller reports it and skips the record). */
long cr_store_line(struct cr_profile *p, const char *name);
long cr_store_point(struct cr_profile *p, const char *name,
                    enum cr_point_kind kind);
long cr_store_experiment(struct cr_profile *p, const struct cr_experiment *e);
long cr_store_obs(struct cr_profile *p, const struct cr_obs *o);

#endif /* COZ_REPORT_PROFILE_STORE_H */
