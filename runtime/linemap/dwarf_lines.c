/* dwarf_lines.c: see dwarf_lines.h. Written against Debian 12's libdwarf
 * 20210528 (the consumer API of dwarf_init_path/dwarf_next_cu_header_d/
 * dwarf_srclines_b). */
#include "dwarf_lines.h"

#include <dwarf.h>
#include <libdwarf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Per-unit cache: file index -> sink handle. */
struct file_cache {
  void **handle;
  bool *known;
  size_t cap;
};

static void drop_error(Dwarf_Debug dbg, Dwarf_Error *err) {
  if (*err) {
    dwarf_dealloc(dbg, *err, DW_DLA_ERROR);
    *err = NULL;
  }
}

static int cache_reserve(struct file_cache *c, Dwarf_Unsigned index) {
  if (index < c->cap)
    return 0;
  size_t cap = c->cap ? c->cap : 64;
  while (cap <= index)
    cap *= 2;
  void **h = realloc(c->handle, cap * sizeof *h);
  if (!h)
    return -1;
  c->handle = h;
  bool *k = realloc(c->known, cap * sizeof *k);
  if (!k)
    return -1;
  memset(k + c->cap, 0, (cap - c->cap) * sizeof *k);
  c->known = k;
  c->cap = cap;
  return 0;
}

/* The sink handle of a row's file, resolving it on first sight. */
static void *row_file(Dwarf_Debug dbg, Dwarf_Line row, struct file_cache *c,
                      const char *comp_dir, const struct coz_dwarf_sink *sink) {
  Dwarf_Error err = NULL;
  Dwarf_Unsigned index = 0;
  if (dwarf_line_srcfileno(row, &index, &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    return NULL;
  }
  if (index > 1u << 20 || cache_reserve(c, index))
    return NULL;
  if (!c->known[index]) {
    char *name = NULL;
    void *h = NULL;
    if (dwarf_linesrc(row, &name, &err) == DW_DLV_OK) {
      h = sink->file(sink->ctx, name, comp_dir);
      dwarf_dealloc(dbg, name, DW_DLA_STRING);
    } else {
      drop_error(dbg, &err);
    }
    c->handle[index] = h;
    c->known[index] = true;
  }
  return c->handle[index];
}

/* Emits the ranges of one unit's rows; merges runs of one file:line. */
static void emit_rows(Dwarf_Debug dbg, Dwarf_Line *rows, Dwarf_Signed n,
                      const char *comp_dir, struct file_cache *cache,
                      const struct coz_dwarf_sink *sink) {
  bool open = false; /* inside a sequence, prev_* valid */
  uint64_t prev_addr = 0;
  void *prev_file = NULL;
  uint32_t prev_line = 0;
  bool pending = false; /* a merged range not yet emitted */
  uint64_t pend_lo = 0, pend_hi = 0;
  void *pend_file = NULL;
  uint32_t pend_line = 0;

  for (Dwarf_Signed i = 0; i < n; i++) {
    Dwarf_Error err = NULL;
    Dwarf_Addr addr = 0;
    Dwarf_Bool end = 0;
    Dwarf_Unsigned lineno = 0;
    if (dwarf_lineaddr(rows[i], &addr, &err) != DW_DLV_OK ||
        dwarf_lineendsequence(rows[i], &end, &err) != DW_DLV_OK ||
        dwarf_lineno(rows[i], &lineno, &err) != DW_DLV_OK) {
      drop_error(dbg, &err);
      continue;
    }
    if (open && addr > prev_addr && prev_file && prev_line) {
      if (pending && pend_hi == prev_addr && pend_file == prev_file &&
          pend_line == prev_line) {
        pend_hi = addr;
      } else {
        if (pending)
          sink->range(sink->ctx, pend_lo, pend_hi, pend_file, pend_line);
        pending = true;
        pend_lo = prev_addr;
        pend_hi = addr;
        pend_file = prev_file;
        pend_line = prev_line;
      }
    }
    if (end) {
      if (pending)
        sink->range(sink->ctx, pend_lo, pend_hi, pend_file, pend_line);
      if (open)
        sink->end_sequence(sink->ctx);
      pending = open = false;
      continue;
    }
    if (open && addr < prev_addr)
      continue; /* malformed: addresses must not go back in a sequence */
    open = true;
    prev_addr = addr;
    prev_line = lineno > UINT32_MAX ? 0 : (uint32_t)lineno;
    prev_file =
        prev_line ? row_file(dbg, rows[i], cache, comp_dir, sink) : NULL;
  }
  if (pending)
    sink->range(sink->ctx, pend_lo, pend_hi, pend_file, pend_line);
  if (open)
    sink->end_sequence(sink->ctx);
}

/* Reads the line table of the unit whose header was just read. Returns 1
 * when it had one. */
static int read_unit(Dwarf_Debug dbg, struct file_cache *cache,
                     const struct coz_dwarf_sink *sink) {
  Dwarf_Error err = NULL;
  Dwarf_Die die = NULL;
  int had_lines = 0;
  if (dwarf_siblingof_b(dbg, NULL, 1, &die, &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    return 0;
  }
  Dwarf_Unsigned version = 0;
  Dwarf_Small table_count = 0;
  Dwarf_Line_Context ctx = NULL;
  if (dwarf_srclines_b(die, &version, &table_count, &ctx, &err) == DW_DLV_OK) {
    Dwarf_Line *rows = NULL;
    Dwarf_Signed n = 0;
    const char *comp_dir = NULL;
    if (dwarf_srclines_comp_dir(ctx, &comp_dir, &err) != DW_DLV_OK) {
      drop_error(dbg, &err);
      comp_dir = NULL;
    }
    if (dwarf_srclines_from_linecontext(ctx, &rows, &n, &err) == DW_DLV_OK) {
      if (cache->cap)
        memset(cache->known, 0, cache->cap * sizeof *cache->known);
      emit_rows(dbg, rows, n, comp_dir, cache, sink);
      had_lines = 1;
    } else {
      drop_error(dbg, &err);
    }
    dwarf_srclines_dealloc_b(ctx);
  } else {
    drop_error(dbg, &err);
  }
  dwarf_dealloc(dbg, die, DW_DLA_DIE);
  return had_lines;
}

long coz_dwarf_read_lines(const char *path, const struct coz_dwarf_sink *sink) {
  Dwarf_Debug dbg = NULL;
  Dwarf_Error err = NULL;
  char true_path[PATH_MAX];
  /* Nothing here keeps a libdwarf object past dwarf_finish, so its
   * bookkeeping of every allocation is pure cost. */
  int old_flag = dwarf_set_de_alloc_flag(0);
  int rc = dwarf_init_path(path, true_path, sizeof true_path, DW_DLC_READ,
                           DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL, 0, NULL,
                           &err);
  if (rc != DW_DLV_OK) {
    drop_error(dbg, &err);
    dwarf_set_de_alloc_flag(old_flag);
    return rc == DW_DLV_NO_ENTRY ? 0 : -1;
  }
  struct file_cache cache = {0};
  long units = 0;
  for (;;) {
    Dwarf_Unsigned header_len = 0, type_offset = 0, next = 0;
    Dwarf_Half version = 0, addr_size = 0, len_size = 0, ext_size = 0;
    Dwarf_Half unit_type = 0;
    Dwarf_Off abbrev = 0;
    Dwarf_Sig8 sig;
    rc = dwarf_next_cu_header_d(dbg, 1, &header_len, &version, &abbrev,
                                &addr_size, &len_size, &ext_size, &sig,
                                &type_offset, &next, &unit_type, &err);
    if (rc != DW_DLV_OK) {
      drop_error(dbg, &err);
      break;
    }
    units += read_unit(dbg, &cache, sink);
  }
  free(cache.handle);
  free(cache.known);
  dwarf_finish(dbg, &err);
  dwarf_set_de_alloc_flag(old_flag); /* other libdwarf users keep theirs */
  return units;
}
