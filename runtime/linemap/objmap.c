/* objmap.c: see objmap.h. */
#include "objmap.h"

#include "arena.h"

#include <stdlib.h>
#include <string.h>

void coz_objmap_begin(struct coz_objmap_builder *b, const uint64_t *seg_lo,
                      const uint64_t *seg_hi, size_t n_seg, size_t size_hint) {
  memset(b, 0, sizeof *b);
  b->sorted = true;
  if (n_seg > COZ_MAX_SEGMENTS)
    n_seg = COZ_MAX_SEGMENTS;
  memcpy(b->seg_lo, seg_lo, n_seg * sizeof *seg_lo);
  memcpy(b->seg_hi, seg_hi, n_seg * sizeof *seg_hi);
  b->n_seg = n_seg;
  if (size_hint) {
    b->r = malloc(size_hint * sizeof *b->r);
    b->cap = b->r ? size_hint : 0;
  }
}

static bool push(struct coz_objmap_builder *b, uint64_t lo,
                 struct coz_line *line) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    struct coz_range *r = realloc(b->r, cap * sizeof *r);
    if (!r) {
      b->failed = true;
      return false;
    }
    b->r = r;
    b->cap = cap;
  }
  b->r[b->n++] = (struct coz_range){lo, line};
  return true;
}

/* Whether lo lies in an executable segment; *limit is that segment's end. */
static bool in_segments(const struct coz_objmap_builder *b, uint64_t lo,
                        uint64_t *limit) {
  for (size_t i = 0; i < b->n_seg; i++)
    if (lo >= b->seg_lo[i] && lo < b->seg_hi[i]) {
      *limit = b->seg_hi[i];
      return true;
    }
  return false;
}

bool coz_objmap_keeps(struct coz_objmap_builder *b, uint64_t lo) {
  if (!b->cur_started) {
    b->cur_started = true;
    b->cur_dropped = !in_segments(b, lo, &b->cur_limit);
  }
  return !b->cur_dropped;
}

void coz_objmap_add_range(struct coz_objmap_builder *b, uint64_t lo,
                          uint64_t hi, struct coz_line *line) {
  if (b->failed || !coz_objmap_keeps(b, lo))
    return;
  if (hi > b->cur_limit)
    hi = b->cur_limit;
  if (lo >= hi)
    return;
  if (b->n > b->cur_first) {
    struct coz_range *last = &b->r[b->n - 1]; /* the open end: a gap */
    if (lo < last->lo)
      return; /* a sequence never goes back */
    if (lo == last->lo && b->n - 1 > b->cur_first &&
        b->r[b->n - 2].line == line) {
      last->lo = hi; /* extends the previous range */
      return;
    }
    if (lo == last->lo) {
      last->line = line;
    } else if (!push(b, lo, line)) {
      return;
    }
  } else if (!push(b, lo, line)) {
    return;
  }
  push(b, hi, NULL);
}

void coz_objmap_end_sequence(struct coz_objmap_builder *b) {
  b->cur_started = false;
  if (b->failed || b->n == b->cur_first) {
    b->cur_first = b->n;
    return;
  }
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
  if (b->n_seq > 0 &&
      b->r[b->cur_first].lo < b->r[b->seq[b->n_seq - 1].end - 1].lo)
    b->sorted = false;
  b->seq[b->n_seq++] = (struct coz_seq){b->cur_first, b->n};
  b->cur_first = b->n;
}

void coz_objmap_discard(struct coz_objmap_builder *b) {
  free(b->r);
  free(b->seq);
  memset(b, 0, sizeof *b);
}

/* qsort's comparison needs the ranges; the build is single-threaded. */
static const struct coz_range *sort_ranges;

static int by_first_address(const void *a, const void *b) {
  uint64_t x = sort_ranges[((const struct coz_seq *)a)->first].lo;
  uint64_t y = sort_ranges[((const struct coz_seq *)b)->first].lo;
  return x < y ? -1 : x > y;
}

/* Appends sequence s to out[0..*n), clipping what overlaps the entries
 * already there (the earlier sequence keeps the addresses). */
static void append_sequence(struct coz_range *out, size_t *n,
                            const struct coz_range *r, struct coz_seq s) {
  uint64_t floor = *n ? out[*n - 1].lo : 0; /* end of what is placed */
  for (size_t i = s.first; i + 1 < s.end; i++) {
    uint64_t lo = r[i].lo, hi = r[i + 1].lo;
    if (hi <= floor)
      continue;
    if (lo < floor)
      lo = floor;
    if (*n && out[*n - 1].lo == lo) {
      if (*n > 1 && out[*n - 2].line == r[i].line) {
        out[*n - 1].lo = hi; /* merges with the previous range */
        floor = hi;
        continue;
      }
      out[*n - 1].line = r[i].line; /* fills the gap entry */
    } else {
      out[(*n)++] = (struct coz_range){lo, r[i].line};
    }
    out[(*n)++] = (struct coz_range){hi, NULL};
    floor = hi;
  }
}

/* Builds m->idx with at most about one bucket per entry; without memory
 * the table is simply searched whole. */
static void build_index(struct coz_objmap *m) {
  if (m->n < 64 || m->n > UINT32_MAX)
    return;
  uint64_t base = m->r[0].lo, span = m->r[m->n - 1].lo - base;
  unsigned shift = 6;
  while ((span >> shift) > m->n)
    shift++;
  size_t buckets = (size_t)(span >> shift) + 2;
  uint32_t *idx = malloc(buckets * sizeof *idx);
  if (!idx)
    return;
  size_t j = 0;
  for (size_t k = 0; k < buckets; k++) {
    uint64_t start = base + ((uint64_t)k << shift);
    while (j + 1 < m->n && m->r[j + 1].lo <= start)
      j++;
    idx[k] = (uint32_t)j;
  }
  m->idx = idx;
  m->base = base;
  m->shift = shift;
}

struct coz_objmap *coz_objmap_finish(struct coz_objmap_builder *b, bool *oom) {
  *oom = false;
  coz_objmap_end_sequence(b); /* a last sequence without its end row */
  struct coz_objmap *m = NULL;
  if (b->failed) {
    *oom = true;
    goto done;
  }
  if (b->n_seq == 0)
    goto done;
  m = coz_arena_alloc(sizeof *m);
  if (!m) {
    *oom = true;
    goto done;
  }
  if (b->sorted) {
    /* Already one table: where a sequence starts at its predecessor's end,
     * the two entries share an address and the later (the line) wins. */
    struct coz_range *shrunk = realloc(b->r, b->n * sizeof *b->r);
    m->r = shrunk ? shrunk : b->r;
    m->n = b->n;
    b->r = NULL;
    goto done;
  }
  /* Sequences are sorted inside; ordering them by start and clipping any
   * overlap yields one sorted table in O(n) plus a sort of the sequences.
   * Compilers emit them mostly in address order, yet not always (main in
   * .text.startup, hot/cold splitting). */
  sort_ranges = b->r;
  qsort(b->seq, b->n_seq, sizeof *b->seq, by_first_address);
  struct coz_range *out = malloc(b->n * sizeof *out);
  if (!out) {
    *oom = true;
    m = NULL; /* the arena keeps its few bytes */
    goto done;
  }
  size_t n = 0;
  for (size_t s = 0; s < b->n_seq; s++)
    append_sequence(out, &n, b->r, b->seq[s]);
  m->r = out;
  m->n = n;
done:
  if (m)
    build_index(m);
  coz_objmap_discard(b);
  return m;
}

struct coz_line *coz_objmap_lookup(const struct coz_objmap *m, uintptr_t pc) {
  uint64_t a = (uint64_t)(pc - m->bias);
  size_t lo = 0, hi = m->n; /* find the last entry with r.lo <= a */
  if (m->idx && a >= m->base && a < m->r[m->n - 1].lo) {
    size_t k = (size_t)((a - m->base) >> m->shift);
    lo = m->idx[k];
    hi = (size_t)m->idx[k + 1] + 1;
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->r[mid].lo <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo == 0 ? NULL : m->r[lo - 1].line;
}
