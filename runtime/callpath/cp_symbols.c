/* cp_symbols.c: see cp_symbols.h. Runs once, at exit, with malloc. */
#include "cp_symbols.h"
#include "fd_floor.h"
#include "linemap/loaded.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cp_func {
  uint64_t start, size;
  const char *name;
};

struct cp_object {
  char *path;
  char build_id[41 * 2];
  uintptr_t bias;
  uintptr_t lo, hi; /* run-time span of its PT_LOAD segments */
  bool loaded;
  struct cp_func *funcs;
  size_t nfuncs;
  char *names; /* one block holding every name */
};

struct cp_symbols {
  struct cp_object *obj;
  size_t n, cap;
  char *paths; /* every object's path, allocated before the walk */
  size_t paths_used, paths_cap;
  bool overflow; /* something was loaded since the count: walk again */
};

static void hex_build_id(struct dl_phdr_info *info, struct cp_object *o) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const unsigned char *p =
        (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (p + 12 <= end) {
      uint32_t namesz, descsz, type;
      memcpy(&namesz, p, 4);
      memcpy(&descsz, p + 4, 4);
      memcpy(&type, p + 8, 4);
      const unsigned char *name = p + 12;
      const unsigned char *desc = name + ((namesz + 3) & ~3u);
      if (desc + descsz > end)
        break;
      if (type == NT_GNU_BUILD_ID && namesz == 4 &&
          memcmp(name, "GNU", 4) == 0 && descsz <= 40) {
        for (uint32_t k = 0; k < descsz; k++)
          snprintf(o->build_id + 2 * k, 3, "%02x", desc[k]);
        return;
      }
      p = desc + ((descsz + 3) & ~3u);
    }
  }
}

/* Under the loader's lock: allocates nothing (an allocator that takes its
 * own lock and then the loader's, as tcmalloc does when it unwinds its
 * callers, would deadlock with us), copies into room made before. */
static int add_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct cp_symbols *s = arg;
  const char *name = info->dlpi_name;
  if (!name || !*name)
    name = coz_executable_path();
  if (!name)
    name = "";
  size_t len = strlen(name) + 1;
  if (s->n == s->cap || s->paths_cap - s->paths_used < len) {
    s->overflow = true;
    return 1;
  }
  struct cp_object *o = &s->obj[s->n];
  memset(o, 0, sizeof *o);
  o->bias = info->dlpi_addr;
  o->lo = UINTPTR_MAX;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (lo < o->lo)
      o->lo = lo;
    if (lo + ph->p_memsz > o->hi)
      o->hi = lo + ph->p_memsz;
  }
  if (o->lo >= o->hi)
    return 0;
  o->path = memcpy(s->paths + s->paths_used, name, len);
  s->paths_used += len;
  hex_build_id(info, o);
  s->n++;
  return 0;
}

static int count_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  size_t *room = arg;
  room[0]++;
  room[1] += (info->dlpi_name ? strlen(info->dlpi_name) : 0) + 1;
  return 0;
}

struct cp_symbols *cp_symbols_load(void) {
  /* Count, allocate with slack, copy; again if a dlopen in between outgrew
   * the slack. */
  for (size_t slack = 16; slack <= 16 << 6; slack *= 4) {
    size_t room[2] = {0, 0};
    dl_iterate_phdr(count_object, room);
    struct cp_symbols *s = calloc(1, sizeof *s);
    if (!s)
      return NULL;
    s->cap = room[0] + slack;
    s->paths_cap = room[1] + 4096 + slack * 256;
    s->obj = calloc(s->cap, sizeof *s->obj);
    s->paths = malloc(s->paths_cap);
    if (s->obj && s->paths)
      dl_iterate_phdr(add_object, s);
    if (s->obj && s->paths && !s->overflow)
      return s;
    cp_symbols_free(s);
  }
  return NULL;
}

static int by_start(const void *a, const void *b) {
  const struct cp_func *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The name of entry i of a symbol table if it is a named function with an
 * address (both passes of read_table must agree on this), else NULL. */
static const char *function_symbol(Elf *elf, Elf_Data *data, size_t strtab,
                                   size_t i, GElf_Sym *sym) {
  if (!gelf_getsym(data, (int)i, sym))
    return NULL;
  int type = GELF_ST_TYPE(sym->st_info);
  if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym->st_value == 0)
    return NULL;
  const char *nm = elf_strptr(elf, strtab, sym->st_name);
  return nm && *nm ? nm : NULL;
}

/* Function symbols of one symbol table section. */
static void read_table(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh,
                       struct cp_object *o) {
  Elf_Data *data = elf_getdata(scn, NULL);
  if (!data || sh->sh_entsize == 0)
    return;
  size_t count = sh->sh_size / sh->sh_entsize;
  struct cp_func *f = calloc(count ? count : 1, sizeof *f);
  size_t total = 0;
  for (size_t i = 0; i < count; i++) {
    GElf_Sym sym;
    const char *nm = function_symbol(elf, data, sh->sh_link, i, &sym);
    if (!nm)
      continue;
    total += strlen(nm) + 1;
  }
  char *names = malloc(total ? total : 1);
  if (!f || !names) {
    free(f);
    free(names);
    return;
  }
  size_t n = 0, used = 0;
  for (size_t i = 0; i < count; i++) {
    GElf_Sym sym;
    const char *nm = function_symbol(elf, data, sh->sh_link, i, &sym);
    if (!nm)
      continue;
    size_t len = strlen(nm) + 1;
    memcpy(names + used, nm, len);
    f[n++] = (struct cp_func){sym.st_value, sym.st_size, names + used};
    used += len;
  }
  qsort(f, n, sizeof *f, by_start);
  o->funcs = f;
  o->nfuncs = n;
  o->names = names;
}

static void load_functions(struct cp_object *o) {
  o->loaded = true;
  if (!o->path || o->path[0] != '/')
    return; /* the vDSO */
  int fd = coz_fd_floor(open(o->path, O_RDONLY | O_CLOEXEC));
  if (fd < 0)
    return;
  elf_version(EV_CURRENT);
  Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
  if (elf) {
    Elf_Scn *symtab = NULL, *dynsym = NULL, *scn = NULL;
    GElf_Shdr sh, symtab_sh, dynsym_sh;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
      if (!gelf_getshdr(scn, &sh))
        continue;
      if (sh.sh_type == SHT_SYMTAB) {
        symtab = scn;
        symtab_sh = sh;
      } else if (sh.sh_type == SHT_DYNSYM) {
        dynsym = scn;
        dynsym_sh = sh;
      }
    }
    if (symtab)
      read_table(elf, symtab, &symtab_sh, o);
    else if (dynsym)
      read_table(elf, dynsym, &dynsym_sh, o);
    elf_end(elf);
  }
  coz_fd_close(fd);
}

void cp_symbols_write_objects(struct cp_symbols *s, FILE *f, long pid) {
  for (size_t i = 0; s && i < s->n; i++)
    fprintf(f, "object\tpid=%ld\tid=%zu\tpath=%s\tbuild-id=%s\n", pid, i,
            s->obj[i].path, s->obj[i].build_id[0] ? s->obj[i].build_id : "-");
}

static const char *base_name(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

void cp_symbols_write_frame(struct cp_symbols *s, FILE *f, uintptr_t pc) {
  for (size_t i = 0; s && i < s->n; i++) {
    struct cp_object *o = &s->obj[i];
    if (pc < o->lo || pc >= o->hi)
      continue;
    if (!o->loaded)
      load_functions(o);
    uint64_t addr = pc - o->bias;
    const char *name = NULL;
    size_t lo = 0, hi = o->nfuncs;
    while (lo < hi) { /* last function starting at or before addr */
      size_t mid = (lo + hi) / 2;
      if (o->funcs[mid].start <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo > 0) {
      const struct cp_func *fn = &o->funcs[lo - 1];
      if (fn->size == 0 || addr < fn->start + fn->size)
        name = fn->name;
    }
    /* Unnamed code (a stripped library's static functions) is named
     * after its object, so the report can still group it. */
    if (name)
      fprintf(f, "%s@%zu+0x%llx", name, i, (unsigned long long)addr);
    else
      fprintf(f, "[%s]@%zu+0x%llx", base_name(o->path), i,
              (unsigned long long)addr);
    return;
  }
  fprintf(f, "[unknown]@-+0x%llx", (unsigned long long)pc);
}

void cp_symbols_free(struct cp_symbols *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->obj[i].funcs);
    free(s->obj[i].names);
  }
  free(s->obj);
  free(s->paths);
  free(s);
}
