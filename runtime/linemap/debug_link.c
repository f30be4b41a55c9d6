/* debug_link.c: see debug_link.h. */
#include "debug_link.h"

#include <elf.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define DEBUG_ROOT "/usr/lib/debug"

/* .gnu_debuglink: the file name, NUL, padding to 4 bytes, the CRC. */
static void read_debuglink(Elf_Data *d, struct coz_debug_link *link) {
  const char *p = d->d_buf;
  const char *nul = memchr(p, 0, d->d_size);
  if (!nul || nul == p || (size_t)(nul - p) >= sizeof link->name ||
      memchr(p, '/', (size_t)(nul - p)))
    return; /* a file name, not a path: what objcopy writes */
  size_t crc_at = ((size_t)(nul - p) + 4) & ~(size_t)3;
  if (crc_at > d->d_size || d->d_size - crc_at < 4)
    return;
  memcpy(link->name, p, (size_t)(nul - p) + 1);
  memcpy(&link->crc, p + crc_at, 4); /* little-endian objects only */
}

static void read_build_id(Elf_Data *d, struct coz_debug_link *link) {
  GElf_Nhdr nh;
  size_t off = 0, name_at, desc_at, next;
  while ((next = gelf_getnote(d, off, &nh, &name_at, &desc_at)) > off) {
    if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
        memcmp((const char *)d->d_buf + name_at, "GNU", 4) == 0 &&
        nh.n_descsz > 0 && nh.n_descsz <= COZ_BUILD_ID_MAX) {
      memcpy(link->build_id, (const char *)d->d_buf + desc_at, nh.n_descsz);
      link->build_id_len = nh.n_descsz;
      return;
    }
    off = next;
  }
}

void coz_debug_link_read(Elf *elf, struct coz_debug_link *link) {
  memset(link, 0, sizeof *link);
  size_t shstrndx;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0)
    return;
  for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
      continue;
    const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
    Elf_Data *d = name ? elf_getdata(scn, NULL) : NULL;
    if (!d || !d->d_buf)
      continue;
    if (sh.sh_type == SHT_NOTE && !link->build_id_len)
      read_build_id(d, link);
    else if (strcmp(name, ".gnu_debuglink") == 0 && !link->name[0])
      read_debuglink(d, link);
  }
}

/* The build ID's place: DEBUG_ROOT/.build-id/xx/yyyy.debug. */
static bool build_id_path(const struct coz_debug_link *link, char *out,
                          size_t cap) {
  if (link->build_id_len < 2)
    return false;
  size_t n = (size_t)snprintf(out, cap, DEBUG_ROOT "/.build-id/%02x/",
                              link->build_id[0]);
  for (size_t k = 1; k < link->build_id_len && n < cap; k++)
    n += (size_t)snprintf(out + n, cap - n, "%02x", link->build_id[k]);
  if (n < cap)
    n += (size_t)snprintf(out + n, cap - n, ".debug");
  return n < cap;
}

bool coz_debug_link_candidate(const struct coz_debug_link *link,
                              const char *path, unsigned i, char *out,
                              size_t cap) {
  out[0] = '\0';
  if (i == 0) {
    if (!build_id_path(link, out, cap))
      out[0] = '\0';
    return true;
  }
  if (i > 3 || !link->name[0])
    return false;
  /* The object's folder: "/a/b" of "/a/b/lib.so", "" of "/lib.so". */
  const char *slash = strrchr(path, '/');
  int dir_len = slash ? (int)(slash - path) : 1;
  const char *dir = slash ? path : ".";
  int n = -1;
  if (i == 1)
    n = snprintf(out, cap, "%.*s/%s", dir_len, dir, link->name);
  else if (i == 2)
    n = snprintf(out, cap, "%.*s/.debug/%s", dir_len, dir, link->name);
  else if (dir[0] == '/') /* the debug root mirrors absolute folders */
    n = snprintf(out, cap, DEBUG_ROOT "%.*s/%s", dir_len, dir, link->name);
  if (n < 0 || (size_t)n >= cap)
    out[0] = '\0';
  return true;
}

/* CRC-32 (zlib's, the one .gnu_debuglink uses) of the whole file. */
static uint32_t file_crc(Elf *elf) {
  size_t size = 0;
  const unsigned char *p = (const unsigned char *)elf_rawfile(elf, &size);
  uLong crc = crc32(0L, Z_NULL, 0);
  while (p && size > 0) {
    uInt chunk = size > (1u << 30) ? (1u << 30) : (uInt)size;
    crc = crc32(crc, p, chunk);
    p += chunk;
    size -= chunk;
  }
  return (uint32_t)crc;
}

bool coz_debug_link_matches(const struct coz_debug_link *link, Elf *elf) {
  struct coz_debug_link own;
  coz_debug_link_read(elf, &own);
  if (own.build_id_len != link->build_id_len ||
      memcmp(own.build_id, link->build_id, link->build_id_len) != 0)
    return false;
  return !link->name[0] || file_crc(elf) == link->crc;
}
