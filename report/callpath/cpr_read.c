/* cpr_read.c: parsing profile.callpath (docs/callpath.md). Lines are
 * `type<TAB>key=value...`; only `resource` and `stack` lines matter here
 * (`callpath` and `object` lines describe the run). Stacks of several runs
 * (pids) and files simply add up; so do resource totals. */
#include "cpr_read.h"
#include "cpr_names.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct name_index {
  size_t *slot; /* id + 1, 0 = empty */
  size_t cap;
};

static uint64_t hash_str(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

static long lookup(const struct cpr_data *d, const char *s, size_t n) {
  const struct name_index *ix = d->name_index;
  if (!ix)
    return -1;
  for (size_t i = hash_str(s, n) & (ix->cap - 1);;
       i = (i + 1) & (ix->cap - 1)) {
    size_t v = ix->slot[i];
    if (!v)
      return -1;
    const char *nm = d->names[v - 1];
    if (strlen(nm) == n && memcmp(nm, s, n) == 0)
      return (long)(v - 1);
  }
}

long cpr_find_function(const struct cpr_data *d, const char *name) {
  return lookup(d, name, strlen(name));
}

static int index_put(struct cpr_data *d, size_t id) {
  struct name_index *ix = d->name_index;
  if (!ix || 2 * (d->n_names + 1) > ix->cap) {
    size_t cap = ix ? ix->cap * 2 : 1024;
    size_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
      return -1;
    if (!ix) {
      ix = calloc(1, sizeof *ix);
      if (!ix) {
        free(slot);
        return -1;
      }
      d->name_index = ix;
    } else {
      free(ix->slot);
    }
    ix->slot = slot;
    ix->cap = cap;
    for (size_t k = 0; k < d->n_names; k++) /* rehash, id + 1 */
      if (k != id) {
        const char *nm = d->names[k];
        size_t i = hash_str(nm, strlen(nm)) & (cap - 1);
        while (slot[i])
          i = (i + 1) & (cap - 1);
        slot[i] = k + 1;
      }
  }
  const char *nm = d->names[id];
  size_t i = hash_str(nm, strlen(nm)) & (ix->cap - 1);
  while (ix->slot[i])
    i = (i + 1) & (ix->cap - 1);
  ix->slot[i] = id + 1;
  return 0;
}

static long intern(struct cpr_data *d, const char *s, size_t n) {
  long id = lookup(d, s, n);
  if (id >= 0)
    return id;
  if (d->n_names == d->cap_names) {
    size_t cap = d->cap_names ? 2 * d->cap_names : 256;
    char **p = realloc(d->names, cap * sizeof *p);
    if (!p)
      return -1;
    d->names = p;
    p = realloc(d->display, cap * sizeof *p);
    if (!p)
      return -1;
    d->display = p;
    d->cap_names = cap;
  }
  char *copy = strndup(s, n);
  if (!copy)
    return -1;
  d->names[d->n_names] = copy;
  if (index_put(d, d->n_names) != 0) {
    free(copy);
    return -1;
  }
  d->display[d->n_names] = cpr_demangle(copy);
  return (long)d->n_names++;
}

long cpr_find_resource(const struct cpr_data *d, const char *name) {
  for (size_t i = 0; i < d->n_res; i++)
    if (strcmp(d->res[i].name, name) == 0)
      return (long)i;
  return -1;
}

/* The value of key in a tab-separated line, or NULL. */
static char *field(char *line, const char *key, size_t *len) {
  size_t kl = strlen(key);
  for (char *p = line; p;) {
    if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
      char *v = p + kl + 1;
      *len = strcspn(v, "\t\n");
      return v;
    }
    p = strchr(p, '\t');
    if (p)
      p++;
  }
  return NULL;
}

static int get_u64(char *line, const char *key, uint64_t *out) {
  size_t len;
  char *v = field(line, key, &len);
  if (!v || len == 0 || v[0] == '-')
    return -1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 10);
  if (errno || end != v + len)
    return -1;
  *out = x;
  return 0;
}

static long resource_of(struct cpr_data *d, char *line, bool create) {
  size_t len;
  char *v = field(line, create ? "name" : "resource", &len);
  if (!v || len == 0)
    return -1;
  for (size_t i = 0; i < d->n_res; i++)
    if (strlen(d->res[i].name) == len && memcmp(d->res[i].name, v, len) == 0)
      return (long)i;
  if (!create)
    return -1;
  struct cpr_resource *r = realloc(d->res, (d->n_res + 1) * sizeof *r);
  if (!r)
    return -1;
  d->res = r;
  r = &d->res[d->n_res];
  memset(r, 0, sizeof *r);
  r->name = strndup(v, len);
  size_t ul;
  char *u = field(line, "unit", &ul);
  r->unit = strndup(u ? u : "units", u ? ul : 5);
  get_u64(line, "period", &r->period);
  return (long)d->n_res++;
}

static int parse_resource(struct cpr_data *d, char *line) {
  uint64_t samples, total, dropped = 0;
  if (get_u64(line, "samples", &samples) || get_u64(line, "total", &total))
    return -1;
  get_u64(line, "dropped", &dropped);
  long r = resource_of(d, line, true);
  if (r < 0)
    return -1;
  d->res[r].samples += samples;
  d->res[r].total += total;
  d->res[r].dropped += dropped;
  return 0;
}

static int parse_stack(struct cpr_data *d, char *line) {
  struct cpr_stack s = {0};
  if (get_u64(line, "samples", &s.samples) ||
      get_u64(line, "weight", &s.weight))
    return -1;
  long r = resource_of(d, line, false);
  size_t len;
  char *frames = field(line, "frames", &len);
  if (r < 0 || !frames || len == 0)
    return -1;
  s.resource = (size_t)r;
  size_t cap = 1;
  for (size_t i = 0; i < len; i++)
    cap += frames[i] == ';';
  s.fn = malloc(cap * sizeof *s.fn);
  if (!s.fn)
    return -1;
  for (char *p = frames, *end = frames + len; p < end;) {
    char *semi = memchr(p, ';', (size_t)(end - p));
    char *stop = semi ? semi : end;
    char *at = stop;
    while (at > p && *at != '@')
      at--;
    if (at == p) { /* `name@object+offset` needs its @ */
      free(s.fn);
      return -1;
    }
    long id = intern(d, p, (size_t)(at - p));
    if (id < 0) {
      free(s.fn);
      return -1;
    }
    s.fn[s.n++] = (unsigned)id;
    p = stop + 1;
  }
  if (d->n_stacks == d->cap_stacks) {
    size_t c = d->cap_stacks ? 2 * d->cap_stacks : 256;
    struct cpr_stack *ns = realloc(d->stacks, c * sizeof *ns);
    if (!ns) {
      free(s.fn);
      return -1;
    }
    d->stacks = ns;
    d->cap_stacks = c;
  }
  d->stacks[d->n_stacks++] = s;
  return 0;
}

int cpr_read_file(struct cpr_data *d, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr,
            "coz-report: cannot read '%s' (%s); run the program with "
            "COZ_CALLPATH=cpu (or another resource) to write one\n",
            path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  size_t bad = 0, lineno = 0, first_bad = 0;
  while (getline(&line, &cap, f) > 0) {
    lineno++;
    int rc = 0;
    if (strncmp(line, "resource\t", 9) == 0)
      rc = parse_resource(d, line);
    else if (strncmp(line, "stack\t", 6) == 0)
      rc = parse_stack(d, line);
    else if (strncmp(line, "callpath\t", 9) != 0 &&
             strncmp(line, "object\t", 7) != 0 && line[0] != '\n')
      rc = -1;
    if (rc != 0 && bad++ == 0)
      first_bad = lineno;
  }
  free(line);
  fclose(f);
  if (bad)
    fprintf(stderr,
            "coz-report: %s: %zu malformed call-path line(s) skipped (first "
            "at line %zu); is it a profile.callpath file?\n",
            path, bad, first_bad);
  d->bad_lines += bad;
  return 0;
}

void cpr_free(struct cpr_data *d) {
  for (size_t i = 0; i < d->n_res; i++) {
    free(d->res[i].name);
    free(d->res[i].unit);
  }
  free(d->res);
  for (size_t i = 0; i < d->n_stacks; i++)
    free(d->stacks[i].fn);
  free(d->stacks);
  for (size_t i = 0; i < d->n_names; i++) {
    free(d->names[i]);
    free(d->display[i]);
  }
  free(d->names);
  free(d->display);
  struct name_index *ix = d->name_index;
  if (ix)
    free(ix->slot);
  free(ix);
  memset(d, 0, sizeof *d);
}

/* Length of "ns::f" in "ns::f(int) const": up to the '(' that opens the
 * last balanced parameter list (templates' and lambdas' parentheses come
 * before it); the whole name when it has none. */
static size_t without_parameters(const char *s) {
  const char *close = strrchr(s, ')');
  if (!close)
    return strlen(s);
  int depth = 0;
  for (const char *p = close;; p--) {
    if (*p == ')')
      depth++;
    else if (*p == '(' && --depth == 0)
      return (size_t)(p - s);
    if (p == s)
      return strlen(s);
  }
}

long cpr_lookup_function(const struct cpr_data *d, const char *name) {
  long id = cpr_find_function(d, name); /* the name as the file holds it */
  if (id >= 0)
    return id;
  for (size_t i = 0; i < d->n_names; i++)
    if (d->display[i] && strcmp(d->display[i], name) == 0)
      return (long)i;
  /* Without the parameter list: ns::Queue::pop names every overload, which
   * is ambiguous when there are several. */
  size_t n = strlen(name);
  long found = -1;
  for (size_t i = 0; i < d->n_names; i++) {
    const char *dm = d->display[i];
    if (dm && without_parameters(dm) == n && memcmp(dm, name, n) == 0) {
      if (found >= 0)
        return -2;
      found = (long)i;
    }
  }
  return found;
}
