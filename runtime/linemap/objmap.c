/* objmap.c: see objmap.h. */
#include "objmap.h"

#include "arena.h"

#include <stdlib.h>

void coz_objmap_add_range(struct coz_objmap_builder *b, uint64_t lo,
                          uint64_t hi, struct coz_file *file, uint32_t line) {
  if (b->failed)
    return;
  if (b->n_raw == b->cap_raw) {
    size_t cap = b->cap_raw ? b->cap_raw * 2 : 4096;
    struct coz_raw_range *r = realloc(b->raw, cap * sizeof *r);
    if (!r) {
      b->failed = true;
      return;
    }
    b->raw = r;
    b->cap_raw = cap;
  }
  b->raw[b->n_raw++] = (struct coz_raw_range){lo, hi, file, line};
}

void coz_objmap_end_sequence(struct coz_objmap_builder *b) {
  if (b->failed || b->n_raw == b->cur_seq_start)
    return;
  if (b->n_seq == b->cap_seq) {
    size_t cap = b->cap_seq ? b->cap_seq * 2 : 256;
    struct coz_seq *s = realloc(b->seq, cap * sizeof *s);
    if (!s) {
      b->failed = true;
      return;
    }
    b->seq = s;
    b->cap_seq = cap;
  }
  b->seq[b->n_seq++] = (struct coz_seq){b->cur_seq_start, b->n_raw};
  b->cur_seq_start = b->n_raw;
}

void coz_objmap_discard(struct coz_objmap_builder *b) {
  free(b->raw);
  free(b->seq);
  *b = (struct coz_objmap_builder){0};
}

/* qsort's comparison needs the ranges; the build is single-threaded. */
static const struct coz_raw_range *sort_raw;

static int by_sequence_start(const void *a, const void *b) {
  uint64_t x = sort_raw[((const struct coz_seq *)a)->first].lo;
  uint64_t y = sort_raw[((const struct coz_seq *)b)->first].lo;
  return x < y ? -1 : x > y;
}

static bool in_segments(uint64_t lo, const uint64_t *seg_lo,
                        const uint64_t *seg_hi, size_t n_seg, uint64_t *limit) {
  for (size_t i = 0; i < n_seg; i++)
    if (lo >= seg_lo[i] && lo < seg_hi[i]) {
      *limit = seg_hi[i];
      return true;
    }
  return false;
}

struct coz_objmap *coz_objmap_finish(struct coz_objmap_builder *b,
                                     const uint64_t *seg_lo,
                                     const uint64_t *seg_hi, size_t n_seg,
                                     bool *oom) {
  *oom = false;
  coz_objmap_end_sequence(b); /* a last sequence without its end row */
  struct coz_objmap *m = NULL;
  struct coz_range *out = NULL;
  if (b->failed || b->n_raw == 0)
    goto done;
  out = malloc(b->n_raw * sizeof *out);
  if (!out)
    goto done;

  /* Each sequence is sorted; sequences rarely overlap, so ordering them by
   * start and clipping overlaps yields a sorted, disjoint table in O(n)
   * plus a sort of the (few) sequences. */
  sort_raw = b->raw;
  qsort(b->seq, b->n_seq, sizeof *b->seq, by_sequence_start);
  size_t n = 0;
  struct coz_file *last_file = NULL;
  uint32_t last_lineno = 0;
  struct coz_line *last_line = NULL;
  for (size_t s = 0; s < b->n_seq; s++) {
    size_t first = b->seq[s].first, end = b->seq[s].end;
    uint64_t limit = 0;
    if (!in_segments(b->raw[first].lo, seg_lo, seg_hi, n_seg, &limit))
      continue;
    for (size_t i = first; i < end; i++) {
      struct coz_raw_range r = b->raw[i];
      if (r.hi > limit)
        r.hi = limit;
      if (n > 0 && r.lo < out[n - 1].hi)
        r.lo = out[n - 1].hi; /* overlap: the earlier sequence keeps it */
      if (r.lo >= r.hi)
        continue;
      if (r.file != last_file || r.line != last_lineno) {
        last_line = coz_intern_line(r.file, r.line);
        if (!last_line) {
          *oom = true;
          goto done;
        }
        last_file = r.file;
        last_lineno = r.line;
      }
      if (n > 0 && out[n - 1].hi == r.lo && out[n - 1].line == last_line)
        out[n - 1].hi = r.hi;
      else
        out[n++] = (struct coz_range){r.lo, r.hi, last_line};
    }
  }
  if (n == 0)
    goto done;
  m = coz_arena_alloc(sizeof *m);
  if (!m) {
    *oom = true;
    goto done;
  }
  struct coz_range *shrunk = realloc(out, n * sizeof *out);
  m->r = shrunk ? shrunk : out;
  out = NULL;
  m->n = n;
done:
  free(out);
  coz_objmap_discard(b);
  return m;
}

struct coz_line *coz_objmap_lookup(const struct coz_objmap *m, uintptr_t pc) {
  uint64_t a = (uint64_t)(pc - m->bias);
  size_t lo = 0, hi = m->n; /* find the last range with r.lo <= a */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->r[mid].lo <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0 || a >= m->r[lo - 1].hi)
    return NULL;
  return m->r[lo - 1].line;
}
