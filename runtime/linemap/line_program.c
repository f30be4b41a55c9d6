/* line_program.c: see line_program.h. Follows DWARF 5 section 6.2 (and
 * the version 2-4 header layouts). */
#include "line_program.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- bounds-checked reading ------------------------------------------- */

struct reader {
  const uint8_t *p, *end;
  bool bad;
};

static uint64_t read_fixed(struct reader *r, unsigned n) {
  if ((size_t)(r->end - r->p) < n) {
    r->bad = true;
    r->p = r->end;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)r->p[i] << (8 * i); /* x86-64 DWARF is little-endian */
  r->p += n;
  return v;
}

static uint64_t read_uleb(struct reader *r) {
  uint64_t v = 0;
  for (unsigned shift = 0; r->p < r->end; shift += 7) {
    uint8_t b = *r->p++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
  r->bad = true;
  return 0;
}

static int64_t read_sleb(struct reader *r) {
  uint64_t v = 0;
  unsigned shift = 0;
  while (r->p < r->end) {
    uint8_t b = *r->p++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) {
      if (shift < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << shift;
      return (int64_t)v;
    }
  }
  r->bad = true;
  return 0;
}

static const char *read_cstr(struct reader *r) {
  const uint8_t *nul = memchr(r->p, 0, (size_t)(r->end - r->p));
  if (!nul) {
    r->bad = true;
    r->p = r->end;
    return NULL;
  }
  const char *s = (const char *)r->p;
  r->p = nul + 1;
  return s;
}

static const char *string_at(const uint8_t *sec, size_t size, uint64_t off) {
  if (!sec || off >= size || !memchr(sec + off, 0, size - off))
    return NULL;
  return (const char *)sec + off;
}

/* ---- the unit's directory and file tables ------------------------------ */

struct file_entry {
  const char *name;
  uint64_t dir;
  void *handle;
  bool resolved;
};

struct tables {
  const char **dirs;
  size_t n_dirs, cap_dirs;
  struct file_entry *files;
  size_t n_files, cap_files;
};

static int add_dir(struct tables *t, const char *d) {
  if (t->n_dirs == t->cap_dirs) {
    size_t cap = t->cap_dirs ? t->cap_dirs * 2 : 16;
    const char **v = realloc(t->dirs, cap * sizeof *v);
    if (!v)
      return -1;
    t->dirs = v;
    t->cap_dirs = cap;
  }
  t->dirs[t->n_dirs++] = d;
  return 0;
}

static int add_file(struct tables *t, const char *name, uint64_t dir) {
  if (t->n_files == t->cap_files) {
    size_t cap = t->cap_files ? t->cap_files * 2 : 32;
    struct file_entry *v = realloc(t->files, cap * sizeof *v);
    if (!v)
      return -1;
    t->files = v;
    t->cap_files = cap;
  }
  t->files[t->n_files++] = (struct file_entry){name, dir, NULL, false};
  return 0;
}

/* The header's unit parameters. */
struct header {
  unsigned version, offset_size, addr_size;
  unsigned min_inst_len, max_ops;
  bool default_is_stmt;
  int line_base;
  unsigned line_range, opcode_base;
  const uint8_t *std_lengths; /* opcode_base - 1 entries */
  int file_base;              /* index of files[0]: 1 before DWARF 5 */
};

/* Reads one value of a DWARF 5 entry format; strings come back in *str. */
static int read_form(struct reader *r, const struct header *h,
                     const struct coz_line_sections *s, uint64_t form,
                     const char **str, uint64_t *num) {
  *str = NULL;
  *num = 0;
  switch (form) {
  case 0x08: /* DW_FORM_string */
    *str = read_cstr(r);
    return 0;
  case 0x1f: /* DW_FORM_line_strp */
    *str =
        string_at(s->line_str, s->line_str_size, read_fixed(r, h->offset_size));
    return 0;
  case 0x0e: /* DW_FORM_strp */
    *str = string_at(s->str, s->str_size, read_fixed(r, h->offset_size));
    return 0;
  case 0x0f: /* DW_FORM_udata */
    *num = read_uleb(r);
    return 0;
  case 0x0b: /* DW_FORM_data1 */
    *num = read_fixed(r, 1);
    return 0;
  case 0x05: /* DW_FORM_data2 */
    *num = read_fixed(r, 2);
    return 0;
  case 0x06: /* DW_FORM_data4 */
    *num = read_fixed(r, 4);
    return 0;
  case 0x07: /* DW_FORM_data8 */
    *num = read_fixed(r, 8);
    return 0;
  case 0x1e: /* DW_FORM_data16 (MD5) */
    read_fixed(r, 8);
    read_fixed(r, 8);
    return 0;
  case 0x09: { /* DW_FORM_block */
    uint64_t n = read_uleb(r);
    if (n > (uint64_t)(r->end - r->p))
      return -1;
    r->p += n;
    return 0;
  }
  default: /* strx forms need .debug_str_offsets: not produced here */
    return -1;
  }
}

/* Reads a DWARF 5 entry list (directories or files). */
static int read_v5_entries(struct reader *r, const struct header *h,
                           const struct coz_line_sections *s, struct tables *t,
                           bool files) {
  uint64_t formats[16][2];
  unsigned n_formats = (unsigned)read_fixed(r, 1);
  if (n_formats > 16)
    return -1;
  for (unsigned i = 0; i < n_formats; i++) {
    formats[i][0] = read_uleb(r);
    formats[i][1] = read_uleb(r);
  }
  uint64_t count = read_uleb(r);
  /* Every field takes a byte or more, so more entries than bytes left is
   * corrupt; refused before the loop, which would otherwise allocate for
   * all of them when entries have no field. */
  if (count > (uint64_t)(r->end - r->p))
    return -1;
  for (uint64_t e = 0; e < count && !r->bad; e++) {
    const char *path = NULL;
    uint64_t dir = 0;
    for (unsigned i = 0; i < n_formats; i++) {
      const char *str;
      uint64_t num;
      if (read_form(r, h, s, formats[i][1], &str, &num))
        return -1;
      if (formats[i][0] == 1) /* DW_LNCT_path */
        path = str;
      else if (formats[i][0] == 2) /* DW_LNCT_directory_index */
        dir = num;
    }
    if (files ? add_file(t, path, dir) : add_dir(t, path))
      return -1;
  }
  return r->bad ? -1 : 0;
}

static int read_v4_tables(struct reader *r, struct tables *t) {
  for (;;) {
    const char *d = read_cstr(r);
    if (!d || !*d)
      break;
    if (add_dir(t, d))
      return -1;
  }
  for (;;) {
    const char *f = read_cstr(r);
    if (!f || !*f)
      break;
    uint64_t dir = read_uleb(r);
    read_uleb(r); /* modification time */
    read_uleb(r); /* length */
    if (add_file(t, f, dir))
      return -1;
  }
  return r->bad ? -1 : 0;
}

/* The sink handle of file register value index, resolved on first use. */
static void *file_handle(struct tables *t, const struct header *h,
                         uint64_t index, const char *comp_dir,
                         const struct coz_dwarf_sink *sink) {
  if (index < (uint64_t)h->file_base || index - h->file_base >= t->n_files)
    return NULL;
  struct file_entry *f = &t->files[index - h->file_base];
  if (f->resolved)
    return f->handle;
  f->resolved = true;
  if (!f->name)
    return NULL;
  const char *dir = f->dir < t->n_dirs ? t->dirs[f->dir] : NULL;
  char joined[PATH_MAX];
  const char *path = f->name;
  if (f->name[0] != '/' && dir && dir[0]) {
    size_t dl = strlen(dir), nl = strlen(f->name);
    if (dl + nl + 2 > sizeof joined)
      return NULL;
    memcpy(joined, dir, dl);
    joined[dl] = '/';
    memcpy(joined + dl + 1, f->name, nl + 1);
    path = joined;
  }
  f->handle = sink->file(sink->ctx, path, comp_dir);
  return f->handle;
}

/* ---- rows to ranges ------------------------------------------------------ */

/* Turns rows into ranges: a row covers the addresses up to the next row of
 * its sequence; consecutive ranges of one file:line are merged. */
struct emitter {
  const struct coz_dwarf_sink *sink;
  bool open; /* a row of the current sequence was seen */
  uint64_t prev_addr;
  void *prev_file;
  uint32_t prev_line;
  bool pending;
  uint64_t lo, hi;
  void *file;
  uint32_t line;
};

static void flush(struct emitter *e) {
  if (e->pending)
    e->sink->range(e->sink->ctx, e->lo, e->hi, e->file, e->line);
  e->pending = false;
}

static void cover_to(struct emitter *e, uint64_t addr) {
  if (!e->open || addr <= e->prev_addr || !e->prev_file || !e->prev_line)
    return;
  if (e->pending && e->hi == e->prev_addr && e->file == e->prev_file &&
      e->line == e->prev_line) {
    e->hi = addr;
    return;
  }
  flush(e);
  e->pending = true;
  e->lo = e->prev_addr;
  e->hi = addr;
  e->file = e->prev_file;
  e->line = e->prev_line;
}

static void row(struct emitter *e, uint64_t addr, void *file, uint64_t line) {
  if (e->open && addr < e->prev_addr)
    return; /* malformed: a sequence's addresses never decrease */
  cover_to(e, addr);
  e->open = true;
  e->prev_addr = addr;
  e->prev_file = file;
  e->prev_line = line > UINT32_MAX ? 0 : (uint32_t)line;
}

static void end_sequence(struct emitter *e, uint64_t addr) {
  cover_to(e, addr);
  flush(e);
  if (e->open)
    e->sink->end_sequence(e->sink->ctx);
  e->open = false;
}

/* ---- the state machine ------------------------------------------------- */

static int run_program(struct reader *r, const struct header *h,
                       struct tables *t, const char *comp_dir,
                       const struct coz_dwarf_sink *sink) {
  struct emitter e = {.sink = sink};
  uint64_t addr = 0, file = 1, line = 1, op_index = 0;
  void *file_h = NULL;
  bool file_known = false;
#define FILE_HANDLE()                                                          \
  (file_known ? file_h                                                         \
              : (file_known = true,                                            \
                 file_h = file_handle(t, h, file, comp_dir, sink)))
#define ADVANCE(ops)                                                           \
  do {                                                                         \
    uint64_t adv_ = (ops);                                                     \
    addr += h->min_inst_len * ((op_index + adv_) / h->max_ops);                \
    op_index = (op_index + adv_) % h->max_ops;                                 \
  } while (0)
#define RESET()                                                                \
  do {                                                                         \
    addr = 0;                                                                  \
    file = 1;                                                                  \
    line = 1;                                                                  \
    op_index = 0;                                                              \
    file_known = false;                                                        \
  } while (0)

  while (r->p < r->end && !r->bad) {
    uint8_t op = *r->p++;
    if (op >= h->opcode_base) { /* special opcode */
      unsigned adj = op - h->opcode_base;
      ADVANCE(adj / h->line_range);
      line += (int64_t)h->line_base + (int64_t)(adj % h->line_range);
      row(&e, addr, FILE_HANDLE(), line);
      continue;
    }
    switch (op) {
    case 0: { /* extended opcode */
      uint64_t len = read_uleb(r);
      if (len == 0 || len > (uint64_t)(r->end - r->p)) {
        r->bad = true; /* stop, but close the open sequence below */
        break;
      }
      const uint8_t *next = r->p + len;
      uint8_t sub = *r->p++;
      if (sub == 1) { /* DW_LNE_end_sequence */
        end_sequence(&e, addr);
        RESET();
      } else if (sub == 2) { /* DW_LNE_set_address */
        addr = read_fixed(r, (unsigned)(len - 1) > 8 ? 8 : (unsigned)len - 1);
        op_index = 0;
      } else if (sub == 3) { /* DW_LNE_define_file (before DWARF 5) */
        const char *name = read_cstr(r);
        uint64_t dir = read_uleb(r);
        if (name && add_file(t, name, dir)) {
          r->bad = true;
          break;
        }
      }
      r->p = next; /* also skips DW_LNE_set_discriminator and unknowns */
      break;
    }
    case 1: /* DW_LNS_copy */
      row(&e, addr, FILE_HANDLE(), line);
      break;
    case 2: /* DW_LNS_advance_pc */
      ADVANCE(read_uleb(r));
      break;
    case 3: /* DW_LNS_advance_line */
      line += (uint64_t)read_sleb(r);
      break;
    case 4: /* DW_LNS_set_file */
      file = read_uleb(r);
      file_known = false;
      break;
    case 8: /* DW_LNS_const_add_pc */
      ADVANCE((255u - h->opcode_base) / h->line_range);
      break;
    case 9: /* DW_LNS_fixed_advance_pc */
      addr += read_fixed(r, 2);
      op_index = 0;
      break;
    default: /* column, stmt, block, prologue, isa... and unknowns */
      for (unsigned i = 0; i < h->std_lengths[op - 1]; i++)
        read_uleb(r);
      break;
    }
  }
#undef FILE_HANDLE
#undef ADVANCE
#undef RESET
  flush(&e);
  if (e.open)
    sink->end_sequence(sink->ctx);
  return r->bad ? -1 : 0;
}

int coz_line_program_decode(const struct coz_line_sections *s, uint64_t offset,
                            const char *comp_dir,
                            const struct coz_dwarf_sink *sink,
                            bool files_only) {
  if (!s->line || offset >= s->line_size)
    return -1;
  struct reader r = {s->line + offset, s->line + s->line_size, false};
  struct header h = {0};
  uint64_t unit_len = read_fixed(&r, 4);
  h.offset_size = 4;
  if (unit_len == 0xffffffffu) {
    unit_len = read_fixed(&r, 8);
    h.offset_size = 8;
  }
  if (r.bad || unit_len > (uint64_t)(r.end - r.p))
    return -1;
  r.end = r.p + unit_len;
  h.version = (unsigned)read_fixed(&r, 2);
  if (h.version < 2 || h.version > 5)
    return -1;
  if (h.version >= 5) {
    h.addr_size = (unsigned)read_fixed(&r, 1);
    read_fixed(&r, 1); /* segment selector size */
  }
  uint64_t header_len = read_fixed(&r, h.offset_size);
  if (r.bad || header_len > (uint64_t)(r.end - r.p))
    return -1;
  const uint8_t *program = r.p + header_len;
  h.min_inst_len = (unsigned)read_fixed(&r, 1);
  h.max_ops = h.version >= 4 ? (unsigned)read_fixed(&r, 1) : 1;
  h.default_is_stmt = read_fixed(&r, 1) != 0;
  h.line_base = (int8_t)read_fixed(&r, 1);
  h.line_range = (unsigned)read_fixed(&r, 1);
  h.opcode_base = (unsigned)read_fixed(&r, 1);
  if (r.bad || h.line_range == 0 || h.max_ops == 0 || h.opcode_base == 0 ||
      h.opcode_base - 1 > (size_t)(r.end - r.p))
    return -1;
  h.std_lengths = r.p;
  r.p += h.opcode_base - 1;

  struct tables t = {0};
  int rc;
  if (h.version >= 5) {
    h.file_base = 0;
    rc = read_v5_entries(&r, &h, s, &t, false);
    if (rc == 0)
      rc = read_v5_entries(&r, &h, s, &t, true);
  } else {
    /* Directory 0 is the unit's directory, file numbers start at 1. */
    h.file_base = 1;
    rc = add_dir(&t, comp_dir);
    if (rc == 0)
      rc = read_v4_tables(&r, &t);
  }
  if (rc == 0 && files_only) {
    for (size_t i = 0; i < t.n_files; i++)
      file_handle(&t, &h, i + (uint64_t)h.file_base, comp_dir, sink);
  } else if (rc == 0 && program <= r.end) {
    r.p = program;
    rc = run_program(&r, &h, &t, comp_dir, sink);
  } else {
    rc = -1;
  }
  free(t.dirs);
  free(t.files);
  return rc;
}
