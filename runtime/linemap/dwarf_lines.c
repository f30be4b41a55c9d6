/* dwarf_lines.c: see dwarf_lines.h.
 *
 * libelf opens the object and hands us the (decompressed) .debug_line
 * bytes, which line_program.c decodes; debug_link.c finds a separate
 * debug file; libdwarf (Debian 12's 20210528, consumer API) walks the
 * compilation units for their DW_AT_stmt_list, DW_AT_comp_dir and
 * DW_AT_name. libdwarf only ever sees a file that libelf read and the
 * checks below passed (its ELF reader trusts header counts, and its
 * .debug_rnglists loader corrupts the heap on a bad header). */
#include "dwarf_lines.h"
#include "fd_floor.h"

#include "debug_link.h"
#include "line_program.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libdwarf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct elf_sections {
  int fd;
  Elf *elf;
  struct coz_line_sections s;
};

/* Section data, decompressed if needed; NULL when absent or unreadable. */
static const uint8_t *section_data(Elf_Scn *scn, const GElf_Shdr *sh,
                                   bool gnu_compressed, size_t *size) {
  if (sh->sh_type == SHT_NOBITS)
    return NULL;
  if ((sh->sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
    return NULL;
  if (gnu_compressed && elf_compress_gnu(scn, 0, 0) < 0)
    return NULL;
  Elf_Data *d = elf_getdata(scn, NULL);
  if (!d || !d->d_buf)
    return NULL;
  *size = d->d_size;
  return d->d_buf;
}

/* Whether libdwarf (20210528) can load this .debug_rnglists. Its loader,
 * run by the first dwarf_next_cu_header_d, frees its list of headers on a
 * malformed one and then goes on using it: a double free that aborts the
 * profiled program. So every header it would read is checked here first,
 * by its rules: a length (32- or 64-bit format) no larger than the
 * section, then version 5, an address size of 2, 4 or 8 and the offset
 * count, all inside the section. */
static bool rnglists_loadable(const uint8_t *p, size_t size) {
  for (size_t off = 0; off < size;) {
    size_t left = size - off, head = 4;
    uint32_t len32;
    uint64_t len;
    if (left < 4)
      return false;
    memcpy(&len32, p + off, 4); /* the object is little-endian */
    len = len32;
    if (len32 == 0xffffffffu) {
      if (left < 12)
        return false;
      memcpy(&len, p + off + 4, 8);
      head = 12;
    }
    if (len > size || left - head < 8)
      return false;
    const uint8_t *h = p + off + head;
    if ((h[0] | h[1] << 8) != 5 || (h[2] != 2 && h[2] != 4 && h[2] != 8))
      return false;
    off += head + (size_t)len;
  }
  return true;
}

static void close_sections(struct elf_sections *es) {
  if (es->elf)
    elf_end(es->elf);
  if (es->fd >= 0)
    coz_fd_close(es->fd);
  es->elf = NULL;
  es->fd = -1;
}

/* Files opened before main (coz_dwarf_preopen), by path. */
#define PREOPEN_MAX 64
static struct {
  char *path;
  int fd;
} preopened[PREOPEN_MAX];

void coz_dwarf_preopen(const char *path) {
  for (int i = 0; i < PREOPEN_MAX; i++)
    if (!preopened[i].path) {
      int fd = coz_fd_floor(open(path, O_RDONLY | O_CLOEXEC));
      if (fd >= 0 && !(preopened[i].path = strdup(path)))
        coz_fd_close(fd);
      else
        preopened[i].fd = fd;
      return;
    }
}

/* The descriptor opened for path before main, once; -1 if none. */
static int take_preopened(const char *path) {
  for (int i = 0; i < PREOPEN_MAX && preopened[i].path; i++)
    if (preopened[i].fd >= 0 && strcmp(preopened[i].path, path) == 0) {
      int fd = preopened[i].fd;
      preopened[i].fd = -1;
      return fd;
    }
  return -1;
}

/* Takes what the line decoder needs from one section; false when the
 * section is one libdwarf must not be shown: its bytes reach past the end
 * of the file (libdwarf allocates the size a header gives before reading
 * it, a section group among others), or a .debug_rnglists it cannot load. */
static bool take_section(struct elf_sections *es, Elf_Scn *scn,
                         const GElf_Shdr *sh, const char *name,
                         uint64_t file_size) {
  if (sh->sh_type != SHT_NOBITS &&
      (sh->sh_offset > file_size || sh->sh_size > file_size - sh->sh_offset))
    return false;
  bool gnu = strncmp(name, ".zdebug_", 8) == 0;
  const char *base =
      gnu ? name + 8 : name + (strncmp(name, ".debug_", 7) ? strlen(name) : 7);
  if (strcmp(base, "line") == 0) {
    es->s.line = section_data(scn, sh, gnu, &es->s.line_size);
  } else if (strcmp(base, "line_str") == 0) {
    es->s.line_str = section_data(scn, sh, gnu, &es->s.line_str_size);
  } else if (strcmp(base, "str") == 0) {
    es->s.str = section_data(scn, sh, gnu, &es->s.str_size);
  } else if (strncmp(base, "rnglists", 8) == 0 && sh->sh_size) {
    size_t size = 0;
    const uint8_t *d = section_data(scn, sh, gnu, &size);
    return d && rnglists_loadable(d, size);
  }
  return true;
}

/* Opens path with libelf and takes its sections; -1 when it is not a
 * little-endian ELF file (the decoders read them so: x86-64) or fails
 * the checks that protect libdwarf. */
static int open_sections(const char *path, struct elf_sections *es) {
  memset(es, 0, sizeof *es);
  es->fd = -1;
  if (elf_version(EV_CURRENT) == EV_NONE)
    return -1;
  es->fd = take_preopened(path);
  if (es->fd < 0)
    es->fd = coz_fd_floor(open(path, O_RDONLY | O_CLOEXEC));
  struct stat st;
  if (es->fd < 0 || fstat(es->fd, &st) != 0) {
    close_sections(es);
    return -1;
  }
  es->elf = elf_begin(es->fd, ELF_C_READ_MMAP, NULL);
  size_t shstrndx;
  const char *ident = es->elf ? elf_getident(es->elf, NULL) : NULL;
  bool ok = ident && ident[EI_DATA] == ELFDATA2LSB &&
            elf_getshdrstrndx(es->elf, &shstrndx) == 0;
  for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(es->elf, scn));) {
    GElf_Shdr sh;
    const char *name = gelf_getshdr(scn, &sh)
                           ? elf_strptr(es->elf, shstrndx, sh.sh_name)
                           : NULL;
    /* A section we cannot name we cannot check either. */
    ok = name && take_section(es, scn, &sh, name, (uint64_t)st.st_size);
  }
  if (!ok) {
    close_sections(es);
    return -1;
  }
  return 0;
}

static void drop_error(Dwarf_Debug dbg, Dwarf_Error *err) {
  if (*err) {
    dwarf_dealloc(dbg, *err, DW_DLA_ERROR);
    *err = NULL;
  }
}

/* The unit's line program offset; returns 0 when it has one. */
static int stmt_list(Dwarf_Debug dbg, Dwarf_Die die, uint64_t *offset) {
  Dwarf_Error err = NULL;
  Dwarf_Attribute at = NULL;
  if (dwarf_attr(die, DW_AT_stmt_list, &at, &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    return -1;
  }
  int rc = -1;
  Dwarf_Off off = 0;
  Dwarf_Unsigned u = 0;
  if (dwarf_global_formref(at, &off, &err) == DW_DLV_OK) {
    *offset = off;
    rc = 0;
  } else {
    drop_error(dbg, &err);
    if (dwarf_formudata(at, &u, &err) == DW_DLV_OK) {
      *offset = u;
      rc = 0;
    }
    drop_error(dbg, &err);
  }
  dwarf_dealloc(dbg, at, DW_DLA_ATTR);
  return rc;
}

/* A string attribute of die, NULL when absent or unreadable. The string
 * lies in a section, so it is never freed (dwarf_dealloc on it would
 * free() whatever the section bytes before it look like), and errors are
 * freed here (dwarf_die_text leaks the one its lookup makes). */
static const char *die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half attr) {
  Dwarf_Error err = NULL;
  Dwarf_Attribute at = NULL;
  if (dwarf_attr(die, attr, &at, &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    return NULL;
  }
  char *str = NULL;
  if (dwarf_formstring(at, &str, &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    str = NULL;
  }
  dwarf_dealloc(dbg, at, DW_DLA_ATTR);
  return str;
}

/* Decodes the line program of the unit whose header was just read.
 * Returns 1 when it had one. */
static int read_unit(Dwarf_Debug dbg, const struct coz_line_sections *s,
                     const struct coz_dwarf_sink *sink, bool files_only) {
  Dwarf_Error err = NULL;
  Dwarf_Die die = NULL;
  if (dwarf_siblingof_b(dbg, NULL, 1, &die, &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    return 0;
  }
  uint64_t offset;
  int had_lines = 0;
  if (stmt_list(dbg, die, &offset) == 0) {
    const char *comp_dir = die_string(dbg, die, DW_AT_comp_dir);
    const char *name = sink->unit ? die_string(dbg, die, DW_AT_name) : NULL;
    if (!sink->unit || sink->unit(sink->ctx, name, comp_dir))
      had_lines =
          coz_line_program_decode(s, offset, comp_dir, sink, files_only) == 0;
  }
  dwarf_dealloc(dbg, die, DW_DLA_DIE);
  return had_lines;
}

struct coz_dwarf_object {
  Dwarf_Debug dbg;
  struct elf_sections es;
  int old_flag;
};

/* libdwarf on the descriptor open_sections opened and checked: it is not
 * asked to follow links (debug_link.c does), and opening by path would
 * take the lowest free number while the program runs (fd_floor.h). */
static Dwarf_Debug init_fd(int fd) {
  Dwarf_Debug dbg = NULL;
  Dwarf_Error err = NULL;
  if (dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg,
                   &err) != DW_DLV_OK) {
    drop_error(dbg, &err);
    return NULL;
  }
  return dbg;
}

/* Opens the separate debug file of the object whose link is given into
 * obj; false when none of the places holds it. Reading a candidate costs
 * a CRC of it, so this is only tried when the object has no line table. */
static bool open_debug_file(struct coz_dwarf_object *obj, const char *path,
                            const struct coz_debug_link *link) {
  char cand[PATH_MAX];
  for (unsigned i = 0;
       coz_debug_link_candidate(link, path, i, cand, sizeof cand); i++) {
    if (!cand[0] || strcmp(cand, path) == 0 ||
        open_sections(cand, &obj->es) != 0)
      continue;
    if (obj->es.s.line && coz_debug_link_matches(link, obj->es.elf) &&
        (obj->dbg = init_fd(obj->es.fd)))
      return true;
    close_sections(&obj->es);
  }
  return false;
}

struct coz_dwarf_object *coz_dwarf_open(const char *path) {
  struct coz_dwarf_object *obj = calloc(1, sizeof *obj);
  if (!obj)
    return NULL;
  obj->es.fd = -1;
  /* We free what we take, so libdwarf's tracking of every allocation for
   * dwarf_finish is pure cost; other libdwarf users keep their setting. */
  obj->old_flag = dwarf_set_de_alloc_flag(0);
  if (open_sections(path, &obj->es) != 0) {
    coz_dwarf_close(obj);
    return NULL;
  }
  if (obj->es.s.line && (obj->dbg = init_fd(obj->es.fd)))
    return obj;
  /* No line table here (a stripped library, say): try the separate debug
   * file that the build ID or .gnu_debuglink names. */
  struct coz_debug_link link;
  coz_debug_link_read(obj->es.elf, &link);
  close_sections(&obj->es);
  if (!open_debug_file(obj, path, &link)) {
    coz_dwarf_close(obj);
    return NULL;
  }
  return obj;
}

size_t coz_dwarf_line_bytes(const struct coz_dwarf_object *obj) {
  return obj->es.s.line_size;
}

long coz_dwarf_read_lines(struct coz_dwarf_object *obj,
                          const struct coz_dwarf_sink *sink, bool files_only) {
  Dwarf_Error err = NULL;
  long units = 0;
  /* libdwarf starts over at the first unit after reporting the end. */
  for (;;) {
    Dwarf_Unsigned header_len = 0, type_offset = 0, next = 0;
    Dwarf_Half version = 0, addr_size = 0, len_size = 0, ext_size = 0;
    Dwarf_Half unit_type = 0;
    Dwarf_Off abbrev = 0;
    Dwarf_Sig8 sig;
    int rc = dwarf_next_cu_header_d(obj->dbg, 1, &header_len, &version, &abbrev,
                                    &addr_size, &len_size, &ext_size, &sig,
                                    &type_offset, &next, &unit_type, &err);
    if (rc != DW_DLV_OK) {
      drop_error(obj->dbg, &err);
      break;
    }
    units += read_unit(obj->dbg, &obj->es.s, sink, files_only);
  }
  return units;
}

void coz_dwarf_close(struct coz_dwarf_object *obj) {
  if (!obj)
    return;
  close_sections(&obj->es);
  if (obj->dbg) {
    Dwarf_Error err = NULL;
    dwarf_finish(obj->dbg, &err);
  }
  dwarf_set_de_alloc_flag(obj->old_flag);
  free(obj);
}
