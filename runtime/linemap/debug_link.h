/* debug_link.h: where an object's separate debug file may be, and how to
 * tell it is the right one.
 *
 * A stripped object names its debug file by build ID (a note) and by
 * .gnu_debuglink (a file name and the CRC-32 of that file). The places
 * tried are those of GDB and libdwarf, in libdwarf's order:
 *   /usr/lib/debug/.build-id/xx/yyyy.debug  (the build ID in hex)
 *   DIR/NAME, DIR/.debug/NAME, /usr/lib/debug/DIR/NAME
 * where DIR is the object's folder and NAME the debuglink's file name. A
 * candidate is the debug file when its build ID is the object's (or both
 * have none) and, if the object has a debuglink, its CRC is the link's:
 * libdwarf's rule.
 *
 * This replaces libdwarf's own search (dwarf_init_path with a true-path
 * buffer), which opens and parses each candidate and the object's links
 * itself, before the line map can check them: corrupt links leaked and
 * corrupt candidates could make it attempt huge allocations. */
#ifndef COZ_LINEMAP_DEBUG_LINK_H
#define COZ_LINEMAP_DEBUG_LINK_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COZ_BUILD_ID_MAX 64

struct coz_debug_link {
  char name[256]; /* .gnu_debuglink's file name; "" when none */
  uint32_t crc;   /* the CRC-32 it gives for that file */
  uint8_t build_id[COZ_BUILD_ID_MAX];
  size_t build_id_len; /* 0 when none */
};

/* Reads elf's build ID and .gnu_debuglink into link (either may be
 * missing; a malformed one counts as missing). */
void coz_debug_link_read(Elf *elf, struct coz_debug_link *link);

/* Writes the i-th place to look for the debug file of the object at path
 * into out; false when there are no more. A place whose path does not
 * fit in cap comes out as "". */
bool coz_debug_link_candidate(const struct coz_debug_link *link,
                              const char *path, unsigned i, char *out,
                              size_t cap);

/* Whether elf, found at a candidate place, is the debug file link names. */
bool coz_debug_link_matches(const struct coz_debug_link *link, Elf *elf);

#endif /* COZ_LINEMAP_DEBUG_LINK_H */
