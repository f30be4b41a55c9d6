/* profile_parse.c: what each profile record means, and reading files.
 *
 * Point records (`throughput-point`, `latency-point`) belong to the last
 * `experiment` record of the same file, as in Coz's viewer. A malformed
 * record is reported as `FILE:LINE: reason` and skipped; the rest of the
 * file is still used.
 */
#include "profile_parse.h"
#include "profile_record.h"
#include "profile_store.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct parse_state {
  struct cr_profile *p;
  const char *name;
  const struct cr_diag *diag;
  size_t line_no;
  long cur_exp; /* the experiment point records attach to, or -1 */
  unsigned shown;
  size_t bad;
};

static void report(struct parse_state *st, const char *reason) {
  st->bad++;
  st->p->malformed++;
  if (st->diag && st->diag->out && st->shown < st->diag->max_messages) {
    /* One message, one line: quoted input never breaks it. */
    char clean[320];
    size_t i = 0;
    for (; reason[i] && i < sizeof clean - 1; i++)
      clean[i] = (unsigned char)reason[i] < 0x20 ? '?' : reason[i];
    clean[i] = '\0';
    fprintf(st->diag->out, "%s:%zu: %s; record skipped\n", st->name,
            st->line_no, clean);
    st->shown++;
  }
}

/* Unsigned decimal integer, the whole string, no overflow. */
static int parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s)
    return -1;
  uint64_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9')
      return -1;
    unsigned d = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - d) / 10)
      return -1;
    v = v * 10 + d;
  }
  *out = v;
  return 0;
}

/* A finite decimal number, the whole string. */
static int parse_real(const char *s, double *out) {
  if (!s || !*s)
    return -1;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (*end || errno == ERANGE || !isfinite(v))
    return -1;
  *out = v;
  return 0;
}

/* Fetches a required unsigned key; on failure explains which key. */
static int need_u64(struct parse_state *st, const struct cr_record *r,
                    const char *key, uint64_t *out) {
  const char *v = cr_record_get(r, key);
  char msg[160];
  if (!v) {
    snprintf(msg, sizeof msg, "%s record has no %s=", r->type, key);
    report(st, msg);
    return -1;
  }
  if (parse_u64(v, out)) {
    snprintf(msg, sizeof msg, "%s=%.40s is not a non-negative integer", key, v);
    report(st, msg);
    return -1;
  }
  return 0;
}

static const char *need_str(struct parse_state *st, const struct cr_record *r,
                            const char *key) {
  const char *v = cr_record_get(r, key);
  if (!v || !*v) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s record has no %s=", r->type, key);
    report(st, msg);
    return NULL;
  }
  return v;
}

/* candidate=1 on a point or totals record: see struct cr_point. */
static void mark_candidate(struct parse_state *st, const struct cr_record *r,
                           long pt) {
  const char *v = cr_record_get(r, "candidate");
  if (v && strcmp(v, "0") != 0)
    st->p->points[pt].candidate = 1;
}

static void on_experiment(struct parse_state *st, const struct cr_record *r) {
  struct cr_experiment e;
  memset(&e, 0, sizeof e);
  st->cur_exp = -1; /* points after a bad experiment must not attach */
  const char *sel = need_str(st, r, "selected");
  if (!sel)
    return;
  double speedup;
  const char *sv = cr_record_get(r, "speedup");
  if (!sv || parse_real(sv, &speedup) || speedup < 0 || speedup > 1) {
    report(st, "speedup= must be a number between 0 and 1");
    return;
  }
  const char *dv = cr_record_get(r, "duration");
  if (!dv || parse_real(dv, &e.duration) || e.duration < 0) {
    report(st, "duration= must be a non-negative number of nanoseconds");
    return;
  }
  if (cr_record_get(r, "selected-samples")) {
    if (need_u64(st, r, "selected-samples", &e.selected_samples))
      return;
    e.has_selected_samples = 1;
  }
  long line = cr_store_line(st->p, sel);
  if (line < 0) {
    report(st, "out of memory");
    return;
  }
  e.line = (uint32_t)line;
  e.speedup = (int)lround(speedup * 1000);
  e.first_obs = st->p->n_obs;
  st->cur_exp = cr_store_experiment(st->p, &e);
  if (st->cur_exp < 0)
    report(st, "out of memory");
}

static void on_point(struct parse_state *st, const struct cr_record *r,
                     enum cr_point_kind kind) {
  struct cr_obs o;
  memset(&o, 0, sizeof o);
  if (st->cur_exp < 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s record is not preceded by an experiment",
             r->type);
    report(st, msg);
    return;
  }
  const char *name = need_str(st, r, "name");
  if (!name)
    return;
  if (kind == CR_THROUGHPUT) {
    if (need_u64(st, r, "delta", &o.delta))
      return;
  } else {
    if (need_u64(st, r, "arrivals", &o.arrivals) ||
        need_u64(st, r, "departures", &o.departures))
      return;
    const char *dv = cr_record_get(r, "difference");
    if (!dv || parse_real(dv, &o.difference)) {
      report(st, "difference= must be a number (transactions in flight)");
      return;
    }
  }
  long pt = cr_store_point(st->p, name, kind);
  if (pt >= 0) {
    mark_candidate(st, r, pt);
    o.point = (uint32_t)pt;
    pt = cr_store_obs(st->p, &o);
  }
  if (pt < 0) {
    report(st, "out of memory");
    return;
  }
  st->p->experiments[st->cur_exp].n_obs++;
}

static void on_samples(struct parse_state *st, const struct cr_record *r) {
  const char *loc = need_str(st, r, "location");
  uint64_t count;
  if (!loc || need_u64(st, r, "count", &count))
    return;
  long line = cr_store_line(st->p, loc);
  if (line < 0) {
    report(st, "out of memory");
    return;
  }
  struct cr_line *l = &st->p->lines[line];
  l->samples =
      l->samples + count < l->samples ? UINT64_MAX : l->samples + count;
  l->has_samples = 1;
  if (st->cur_exp >= 0) {
    uint64_t *after = &st->p->experiments[st->cur_exp].samples_after;
    *after = *after + count < *after ? UINT64_MAX : *after + count;
  }
}

static void on_runtime(struct parse_state *st, const struct cr_record *r) {
  if (cr_record_get(r, "time")) {
    uint64_t t;
    if (need_u64(st, r, "time", &t))
      return;
    st->p->runtime_ns += (double)t;
    st->p->has_runtime = 1;
    return;
  }
  const char *name = cr_record_get(r, "point");
  if (!name || !*name) {
    report(st, "runtime record needs time= or point=");
    return;
  }
  const char *kv = cr_record_get(r, "kind");
  enum cr_point_kind kind = CR_THROUGHPUT;
  if (kv && strcmp(kv, "latency") == 0)
    kind = CR_LATENCY;
  else if (kv && strcmp(kv, "throughput") != 0) {
    report(st, "kind= must be throughput or latency");
    return;
  }
  uint64_t visits = 0;
  const char *key = kind == CR_LATENCY ? "arrivals" : "visits";
  if (cr_record_get(r, key) && need_u64(st, r, key, &visits))
    return;
  long pt = cr_store_point(st->p, name, kind);
  if (pt < 0) {
    report(st, "out of memory");
    return;
  }
  mark_candidate(st, r, pt);
  struct cr_point *p = &st->p->points[pt];
  p->visits = p->visits + visits < p->visits ? UINT64_MAX : p->visits + visits;
  p->has_visits = 1;
}

static void on_record(struct parse_state *st, const struct cr_record *r) {
  const char *t = r->type;
  if (strcmp(t, "experiment") == 0) {
    on_experiment(st, r);
  } else if (strcmp(t, "throughput-point") == 0 ||
             strcmp(t, "progress-point") == 0 ||
             strcmp(t, "throughput_point") == 0) {
    on_point(st, r, CR_THROUGHPUT);
  } else if (strcmp(t, "latency-point") == 0 ||
             strcmp(t, "latency_point") == 0) {
    on_point(st, r, CR_LATENCY);
  } else if (strcmp(t, "samples") == 0) {
    on_samples(st, r);
  } else if (strcmp(t, "runtime") == 0) {
    on_runtime(st, r);
  } else if (strcmp(t, "startup") == 0) {
    st->p->runs++;
    st->cur_exp = -1;
  } else if (strcmp(t, "shutdown") == 0) {
    st->cur_exp = -1;
  } else {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown record type '%.40s'", t);
    report(st, msg);
    return;
  }
  st->p->records++;
}

void cr_profile_parse(struct cr_profile *p, const char *name, const char *buf,
                      size_t len, const struct cr_diag *diag) {
  struct parse_state st = {p, name, diag, 0, -1, 0, 0};
  struct cr_record rec;
  cr_record_init(&rec);
  size_t exps_before = p->n_experiments;
  size_t malformed_before = p->malformed;
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(buf + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - buf) : len;
    st.line_no++;
    size_t n = end - pos;
    if (n > 0 && !(n == 1 && buf[pos] == '\r')) {
      const char *why = cr_record_parse_line(&rec, buf + pos, n);
      if (why)
        report(&st, why);
      else if (!rec.type || !*rec.type)
        report(&st, "record has no type");
      else
        on_record(&st, &rec);
    }
    pos = end + 1;
  }
  cr_record_free(&rec);
  if (p->n_experiments > exps_before)
    p->files_with_experiments++;
  size_t bad = p->malformed - malformed_before;
  if (diag && diag->out && bad > st.shown)
    fprintf(diag->out, "%s: %zu more malformed records not shown\n", name,
            bad - st.shown);
}

int cr_profile_read_file(struct cr_profile *p, const char *path,
                         const struct cr_diag *diag) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  int err = 0;
  if (!f) {
    err = errno;
  } else {
    for (;;) {
      if (len == cap) {
        size_t ncap = cap ? cap * 2 : 65536;
        char *nb = realloc(buf, ncap);
        if (!nb) {
          err = ENOMEM;
          break;
        }
        buf = nb;
        cap = ncap;
      }
      size_t got = fread(buf + len, 1, cap - len, f);
      len += got;
      if (got == 0) {
        if (ferror(f))
          err = errno ? errno : EIO;
        break;
      }
    }
    fclose(f);
  }
  if (err) {
    FILE *out = diag && diag->out ? diag->out : stderr;
    fprintf(out,
            "coz-report: cannot read '%s': %s (give the profile written by "
            "the profiled program, " CR_DEFAULT_PROFILE " by default)\n",
            path, strerror(err));
    free(buf);
    return -1;
  }
  p->files_read++;
  cr_profile_parse(p, path, buf, len, diag);
  free(buf);
  return 0;
}
