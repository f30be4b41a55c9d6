/* dwarf_lines.c: see dwarf_lines.h.
 *
 * libdwarf (Debian 12's 20210528, consumer API) opens the object, follows
 * .gnu_debuglink to a separate debug file, and walks the compilation units
 * for their DW_AT_stmt_list and DW_AT_comp_dir; libelf hands us the
 * (decompressed) .debug_line bytes, which line_program.c decodes. */
#include "dwarf_lines.h"
#include "fd_floor.h"

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

static void close_sections(struct elf_sections *es) {
  if (es->elf)
    elf_end(es->elf);
  if (es->fd >= 0)
    close(es->fd);
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
        syscall(SYS_close, fd);
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

static int open_sections(const char *path, struct elf_sections *es) {
  memset(es, 0, sizeof *es);
  es->fd = -1;
  if (elf_version(EV_CURRENT) == EV_NONE)
    return -1;
  es->fd = take_preopened(path);
  if (es->fd < 0)
    es->fd = coz_fd_floor(open(path, O_RDONLY | O_CLOEXEC));
  if (es->fd < 0)
    return -1;
  es->elf = elf_begin(es->fd, ELF_C_READ_MMAP, NULL);
  size_t shstrndx;
  if (!es->elf || elf_getshdrstrndx(es->elf, &shstrndx) != 0) {
    close_sections(es);
    return -1;
  }
  for (Elf_Scn *scn = NULL; (scn = elf_nextscn(es->elf, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
      continue;
    const char *name = elf_strptr(es->elf, shstrndx, sh.sh_name);
    if (!name)
      continue;
    bool gnu = strncmp(name, ".zdebug_", 8) == 0;
    const char *base =
        gnu ? name + 8
            : name + (strncmp(name, ".debug_", 7) ? strlen(name) : 7);
    if (strcmp(base, "line") == 0)
      es->s.line = section_data(scn, &sh, gnu, &es->s.line_size);
    else if (strcmp(base, "line_str") == 0)
      es->s.line_str = section_data(scn, &sh, gnu, &es->s.line_str_size);
    else if (strcmp(base, "str") == 0)
      es->s.str = section_data(scn, &sh, gnu, &es->s.str_size);
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
    char *comp_dir = NULL;
    if (dwarf_die_text(die, DW_AT_comp_dir, &comp_dir, &err) != DW_DLV_OK) {
      drop_error(dbg, &err);
      comp_dir = NULL;
    }
    char *name = NULL;
    if (sink->unit &&
        dwarf_die_text(die, DW_AT_name, &name, &err) != DW_DLV_OK) {
      drop_error(dbg, &err);
      name = NULL;
    }
    if (!sink->unit || sink->unit(sink->ctx, name, comp_dir))
      had_lines =
          coz_line_program_decode(s, offset, comp_dir, sink, files_only) == 0;
    if (name)
      dwarf_dealloc(dbg, name, DW_DLA_STRING);
    if (comp_dir)
      dwarf_dealloc(dbg, comp_dir, DW_DLA_STRING);
  }
  dwarf_dealloc(dbg, die, DW_DLA_DIE);
  return had_lines;
}

struct coz_dwarf_object {
  Dwarf_Debug dbg;
  struct elf_sections es;
  int old_flag;
};

/* libdwarf's dwarf_init_path; a true_path buffer makes it follow
 * .gnu_debuglink, which costs a CRC of the debug file, so that is only
 * tried when the object itself has no line table. */
static Dwarf_Debug init_path(const char *path, char *true_path, size_t cap) {
  Dwarf_Debug dbg = NULL;
  Dwarf_Error err = NULL;
  int rc = dwarf_init_path(path, true_path, (unsigned)cap, DW_DLC_READ,
                           DW_GROUPNUMBER_ANY, NULL, NULL, &dbg, NULL, 0, NULL,
                           &err);
  if (rc != DW_DLV_OK) {
    drop_error(dbg, &err);
    return NULL;
  }
  return dbg;
}

/* libdwarf on the descriptor open_sections opened: dwarf_init_path would
 * open the file again, at the lowest free number, and hold it while the
 * object is read, concurrently with the program's own opens
 * (fd_floor.h). */
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

struct coz_dwarf_object *coz_dwarf_open(const char *path) {
  struct coz_dwarf_object *obj = calloc(1, sizeof *obj);
  if (!obj)
    return NULL;
  obj->es.fd = -1;
  /* We free what we take, so libdwarf's tracking of every allocation for
   * dwarf_finish is pure cost; other libdwarf users keep their setting. */
  obj->old_flag = dwarf_set_de_alloc_flag(0);
  if (open_sections(path, &obj->es) == 0 && obj->es.s.line &&
      (obj->dbg = init_fd(obj->es.fd)))
    return obj;
  /* No line table here (a stripped library, say): try the separate debug
   * file that .gnu_debuglink or the build ID names (libdwarf opens it). */
  close_sections(&obj->es);
  char true_path[PATH_MAX] = "";
  obj->dbg = init_path(path, true_path, sizeof true_path);
  if (!obj->dbg || !true_path[0] || strcmp(true_path, path) == 0 ||
      open_sections(true_path, &obj->es) != 0 || !obj->es.s.line) {
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
  if (obj->dbg) { /* before its descriptor closes */
    Dwarf_Error err = NULL;
    dwarf_finish(obj->dbg, &err);
  }
  close_sections(&obj->es);
  dwarf_set_de_alloc_flag(obj->old_flag);
  free(obj);
}
