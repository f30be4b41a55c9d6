/* out_json.c: the machine-readable report (schema: docs/report.md).
 *
 * Numbers that cannot be computed (a slope from one point, a CI with no
 * valid replicate) are null, never NaN.
 */
#include "out_json.h"
#include "rank.h"
#include "source.h"

#include <math.h>

static json_t *num(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

static json_t *pair(double lo, double hi) {
  if (!isfinite(lo) || !isfinite(hi))
    return json_null();
  return json_pack("[ff]", lo, hi);
}

static const char *pred_key[CR_PRED_N] = {"0.25", "0.5", "1"};

static json_t *row_json(const struct cr_report *rep, const struct cr_row *row,
                        size_t rank) {
  const struct cr_profile *p = rep->p;
  const char *loc = p->lines[row->line].name;
  size_t file_len;
  unsigned long line_no = cr_location_split(loc, &file_len);
  json_t *o = json_object();
  json_object_set_new(o, "rank", json_integer((json_int_t)rank));
  json_object_set_new(o, "location", json_string(loc));
  json_object_set_new(o, "file", json_stringn(loc, file_len));
  json_object_set_new(
      o, "line", line_no ? json_integer((json_int_t)line_no) : json_null());
  json_object_set_new(o, "point", json_string(p->points[row->point].name));
  json_object_set_new(
      o, "kind",
      json_string(row->kind == CR_LATENCY ? "latency" : "throughput"));
  json_object_set_new(o, "experiments", json_integer((json_int_t)row->n_obs));
  json_object_set_new(o, "speedups", json_integer((json_int_t)row->n_valid));
  if (row->drop != CR_KEPT) {
    static const char *why[] = {"kept", "no-progress", "no-baseline",
                                "too-few-speedups"};
    json_object_set_new(o, "reason", json_string(why[row->drop]));
    return o;
  }
  json_object_set_new(o, "slope", num(row->slope));
  json_object_set_new(o, "slope_ci", pair(row->slope_lo, row->slope_hi));
  json_object_set_new(o, "slope_se", num(row->slope_se));
  json_object_set_new(o, "max", num(row->max));
  json_object_set_new(o, "min", num(row->min));
  json_object_set_new(o, "contention", json_boolean(row->contention));
  json_object_set_new(o, "baseline",
                      json_string(row->pooled_baseline ? "pooled" : "own"));
  json_object_set_new(o, "phase_factor",
                      row->phase_applied ? num(row->phase_factor)
                                         : json_null());
  json_t *pred = json_object(), *pred_ci = json_object();
  for (int k = 0; k < CR_PRED_N; k++) {
    json_object_set_new(pred, pred_key[k], num(row->pred[k]));
    json_object_set_new(pred_ci, pred_key[k],
                        pair(row->pred_lo[k], row->pred_hi[k]));
  }
  json_object_set_new(o, "predicted", pred);
  json_object_set_new(o, "predicted_ci", pred_ci);
  json_t *pts = json_array();
  for (size_t i = 0; i < row->n_m; i++) {
    const struct cr_measure *m = &row->m[i];
    if (!m->valid)
      continue;
    json_t *pt = json_object();
    json_object_set_new(pt, "speedup", json_real(m->speedup / 1000.0));
    json_object_set_new(pt, "program_speedup", num(m->y));
    json_object_set_new(pt, "ci", pair(m->lo, m->hi));
    json_object_set_new(pt, "experiments",
                        json_integer((json_int_t)m->experiments));
    json_object_set_new(pt, "duration_ns", num(m->duration));
    if (row->kind == CR_THROUGHPUT) {
      json_object_set_new(pt, "delta", json_integer((json_int_t)m->delta));
      json_object_set_new(pt, "period_ns", num(m->value));
    } else {
      json_object_set_new(pt, "arrivals",
                          json_integer((json_int_t)m->arrivals));
      json_object_set_new(pt, "in_flight", num(m->difference));
      json_object_set_new(pt, "latency_ns", num(m->value));
    }
    json_array_append_new(pts, pt);
  }
  json_object_set_new(o, "points", pts);
  return o;
}

static const char *guidance_name(enum cr_guidance_reason g) {
  static const char *n[] = {
      "none",        "no-input",    "no-experiments",   "no-such-point",
      "no-progress", "no-baseline", "too-few-speedups", "only-candidates"};
  return n[g];
}

/* The answer (answer.c), or null when nothing is plotted. */
static json_t *answer_json(const struct cr_result *r) {
  const struct cr_answer *a = &r->answer;
  if (a->k == 0)
    return json_null();
  json_t *ranks = json_array();
  for (unsigned i = 0; i < a->k; i++) {
    json_t *o = json_pack("{s:I, s:b}", "rank", (json_int_t)(i + 1), "settled",
                          a->settled[i]);
    if (!a->settled[i] && a->rival[i]) {
      json_object_set_new(o, "overlaps_rank",
                          json_integer((json_int_t)a->rival[i]));
      json_object_set_new(o, "more_runs",
                          a->more_runs[i] >= 0 ? json_integer(a->more_runs[i])
                                               : json_null());
    }
    json_array_append_new(ranks, o);
  }
  return json_pack("{s:I, s:I, s:b, s:o}", "top", (json_int_t)a->k,
                   "stable_experiments", (json_int_t)a->stable,
                   "top_set_settled", a->top_set_settled, "ranks", ranks);
}

json_t *cr_report_json(const struct cr_report *rep) {
  const struct cr_result *r = rep->r;
  const struct cr_profile *p = rep->p;
  json_t *doc = json_object();
  json_object_set_new(doc, "schema", json_string("coz-report/1"));
  json_t *inputs = json_array();
  for (size_t i = 0; i < rep->n_inputs; i++)
    json_array_append_new(inputs, json_string(rep->inputs[i]));
  json_object_set_new(doc, "inputs", inputs);
  json_object_set_new(doc, "runs", json_integer(r->runs));
  json_object_set_new(doc, "experiments",
                      json_integer((json_int_t)p->n_experiments));
  json_object_set_new(doc, "malformed_records",
                      json_integer((json_int_t)p->malformed));
  json_object_set_new(doc, "runtime_ns",
                      p->has_runtime ? num(p->runtime_ns) : json_null());
  json_object_set_new(doc, "sort", json_string(cr_sort_name(r->sort)));
  json_object_set_new(doc, "min_points", json_integer(rep->o->min_points));
  json_object_set_new(doc, "point_filter",
                      rep->o->point ? json_string(rep->o->point) : json_null());
  json_object_set_new(
      doc, "ci",
      json_pack("{s:s, s:f, s:I, s:I}", "method", "parametric-bootstrap",
                "level", 0.95, "replicates", (json_int_t)rep->o->replicates,
                "seed", (json_int_t)(rep->o->seed & 0x7fffffffffffffffull)));
  json_object_set_new(doc, "predicted_method", json_string("local-linear"));
  json_t *lines = json_array(), *dropped = json_array();
  for (size_t i = 0; i < r->n_rows; i++)
    json_array_append_new(lines, row_json(rep, &r->rows[i], i + 1));
  for (size_t i = 0; i < r->n_dropped; i++)
    json_array_append_new(dropped, row_json(rep, &r->dropped[i], 0));
  json_object_set_new(doc, "lines", lines);
  json_object_set_new(doc, "dropped", dropped);
  json_object_set_new(doc, "answer", answer_json(r));
  if (r->n_rows == 0) {
    json_object_set_new(doc, "guidance",
                        json_pack("{s:s, s:o, s:s}", "reason",
                                  guidance_name(r->guidance.reason),
                                  "more_runs",
                                  r->guidance.more_runs >= 0
                                      ? json_integer(r->guidance.more_runs)
                                      : json_null(),
                                  "message", r->guidance.message));
  } else {
    json_object_set_new(doc, "guidance", json_null());
  }
  return doc;
}

int cr_write_json(FILE *f, const struct cr_report *rep) {
  json_t *doc = cr_report_json(rep);
  if (!doc)
    return -1;
  int rc = json_dumpf(
      doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10) | JSON_ENSURE_ASCII);
  fputc('\n', f);
  json_decref(doc);
  return rc;
}
