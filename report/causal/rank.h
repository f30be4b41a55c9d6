/* rank.h: the order of the rows. */
#ifndef COZ_REPORT_RANK_H
#define COZ_REPORT_RANK_H

#include "result.h"

/* Ranks rows by `sort` (ties by line then point name). */
void cr_rank(struct cr_row *rows, size_t n, enum cr_sort sort,
             const struct cr_profile *p);
/* The number a ranking orders by, highest first (lowest first for min). */
double cr_sort_key(const struct cr_row *r, enum cr_sort s);
/* The ranking's name for --sort, and in words. */
const char *cr_sort_name(enum cr_sort s);
const char *cr_sort_label(enum cr_sort s);
int cr_sort_parse(const char *s, enum cr_sort *out);

#endif /* COZ_REPORT_RANK_H */
