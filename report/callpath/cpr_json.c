/* cpr_json.c: `coz-report callpath --json`, the profiles of one
 * resource as one JSON document (schema `coz-callpath/1`, docs/callpath.md).
 * Paths are arrays of frames, so names holding blanks (C++ parameter lists)
 * stay unambiguous; a frame whose symbol was a mangled C++ name also
 * carries that name as `mangled`. */
#include "cpr_json.h"
#include "cpr_names.h"
#include "cpr_profile.h"

#include <jansson.h>

static json_t *frame_json(const struct cpr_data *d, unsigned id) {
  json_t *o = json_object();
  json_object_set_new(o, "name", json_string(cpr_name(d, id)));
  if (d->display[id])
    json_object_set_new(o, "mangled", json_string(d->names[id]));
  return o;
}

static const char *kind_name(enum cpr_kind kind) {
  switch (kind) {
  case CPR_FUNCTIONS:
    return "function";
  case CPR_DOWN:
    return "down";
  case CPR_UP:
    return "up";
  case CPR_BODY:
    return "body";
  }
  return "?";
}

static json_t *profile_json(const struct cpr_data *d, size_t resource,
                            enum cpr_kind kind, long root,
                            const struct cpr_rows *rows, double threshold) {
  const struct cpr_resource *r = &d->res[resource];
  json_t *o = json_object();
  json_object_set_new(o, "kind", json_string(kind_name(kind)));
  json_object_set_new(o, "root",
                      root >= 0 ? frame_json(d, (unsigned)root) : json_null());
  json_t *list = json_array();
  size_t hidden = 0;
  for (size_t i = 0; i < rows->n; i++) {
    const struct cpr_row *row = &rows->rows[i];
    double frac = r->total ? (double)row->weight / (double)r->total : 0.0;
    if (frac < threshold) {
      hidden++;
      continue;
    }
    json_t *path = json_array();
    for (size_t k = 0; k < row->n; k++)
      json_array_append_new(path, frame_json(d, row->path[k]));
    json_array_append_new(
        list, json_pack("{s:f, s:I, s:I, s:o}", "fraction", frac, "weight",
                        (json_int_t)row->weight, "samples",
                        (json_int_t)row->samples, "path", path));
  }
  json_object_set_new(o, "rows", list);
  json_object_set_new(o, "hidden_rows", json_integer((json_int_t)hidden));
  return o;
}

int cpr_print_json(FILE *f, const struct cpr_data *d, size_t resource,
                   const enum cpr_kind *kinds, size_t n_kinds, long root,
                   double threshold) {
  const struct cpr_resource *r = &d->res[resource];
  json_t *profiles = json_array();
  json_t *doc = json_pack(
      "{s:s, s:{s:s, s:s, s:I, s:I, s:I, s:I}, s:f, s:o}", "schema",
      "coz-callpath/1", "resource", "name", r->name, "unit", r->unit, "period",
      (json_int_t)r->period, "samples", (json_int_t)r->samples, "total",
      (json_int_t)r->total, "dropped", (json_int_t)r->dropped, "threshold",
      threshold, "profiles", profiles);
  int rc = doc ? 0 : -1;
  for (size_t k = 0; rc == 0 && k < n_kinds; k++) {
    struct cpr_rows rows;
    if (cpr_profile(d, resource, kinds[k], root < 0 ? 0 : (unsigned)root,
                    &rows) != 0) {
      rc = -1;
      break;
    }
    json_t *p =
        profile_json(d, resource, kinds[k],
                     kinds[k] == CPR_DOWN || kinds[k] == CPR_UP ? root : -1,
                     &rows, threshold);
    cpr_rows_free(&rows);
    if (!p || json_array_append_new(profiles, p) != 0)
      rc = -1;
  }
  if (rc == 0)
    rc = json_dumpf(doc, f, JSON_INDENT(2)) == 0 && fputc('\n', f) != EOF ? 0
                                                                          : -1;
  json_decref(doc);
  return rc;
}
