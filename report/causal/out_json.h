/* out_json.h: the causal profile as JSON. */
#ifndef COZ_REPORT_OUT_JSON_H
#define COZ_REPORT_OUT_JSON_H

#include "causal_report.h"

#include <jansson.h>
#include <stdio.h>

/* The JSON document (schema in docs/report.md); NULL on out of memory. */
json_t *cr_report_json(const struct cr_report *rep);
int cr_write_json(FILE *f, const struct cr_report *rep);

#endif /* COZ_REPORT_OUT_JSON_H */
