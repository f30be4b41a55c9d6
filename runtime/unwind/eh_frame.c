/* eh_frame.c: see eh_frame.h.
 *
 * Layouts read here (LSB, "Exception Frames"; DWARF 4, 6.4.1):
 *   .eh_frame_hdr table: fde_count pairs (initial location, FDE address),
 *     each an sdata4 relative to the start of .eh_frame_hdr, sorted.
 *   CIE: length (u32; 0xffffffff then u64), id (u32) 0, version (1, 3),
 *     augmentation string, code alignment (uleb), data alignment (sleb),
 *     return address column (u8 in version 1, uleb after), then with a
 *     'z' augmentation: data length (uleb) and one field per letter (L:
 *     LSDA encoding, P: personality encoding and pointer, R: FDE pointer
 *     encoding, S: signal frame), then the initial instructions.
 *   FDE: length, CIE pointer (u32: offset back from this field to the CIE),
 *     pc_begin (R-encoded), pc_range (R's format, not relative), with 'z'
 *     the augmentation data (length, skipped), then the instructions. */
#include "eh_frame.h"

#include "encoding.h"

/* Reads an entry's length and returns a cursor over its body (after the
 * length field); bad when it does not fit in [start, seg_end). */
static struct coz_cursor entry_body(const unsigned char *start,
                                    uintptr_t seg_end) {
  struct coz_cursor c = coz_cursor_at(start, (const void *)seg_end);
  uint64_t len = coz_read_u32(&c);
  if (len == 0xffffffffu) /* 64-bit length; the id stays 4 bytes */
    len = coz_read_u64(&c);
  if (c.bad || len == 0 || len > (uint64_t)(c.end - c.p)) {
    c.bad = true;
    return c;
  }
  c.end = c.p + len;
  return c;
}

/* Parses the CIE at cie into fde's CIE fields; *aug_z says whether FDEs
 * carry augmentation data. */
static bool parse_cie(const unsigned char *cie, uintptr_t seg_end,
                      struct coz_fde *fde, bool *aug_z) {
  struct coz_cursor c = entry_body(cie, seg_end);
  uint32_t id = coz_read_u32(&c);
  uint8_t version = coz_read_u8(&c);
  if (c.bad || id != 0 || (version != 1 && version != 3))
    return false;
  /* The augmentation string: only 'z' forms (and none) are understood. */
  const unsigned char *aug = c.p;
  while (coz_read_u8(&c) != 0 && !c.bad) {
  }
  if (c.bad || (aug[0] != 0 && aug[0] != 'z'))
    return false;
  fde->code_align = coz_read_uleb(&c);
  fde->data_align = coz_read_sleb(&c);
  fde->ra_column = version == 1 ? coz_read_u8(&c) : coz_read_uleb(&c);
  fde->ptr_enc = COZ_PE_ABSPTR;
  fde->signal_frame = false;
  *aug_z = aug[0] == 'z';
  if (*aug_z) {
    uint64_t len = coz_read_uleb(&c);
    const unsigned char *data = coz_take(&c, len);
    if (!data)
      return false;
    struct coz_cursor a = coz_cursor_at(data, data + len);
    for (const unsigned char *l = aug + 1; *l; l++) {
      switch (*l) {
      case 'L':
        coz_read_u8(&a);
        break;
      case 'P':
        coz_skip_pointer(&a, coz_read_u8(&a));
        break;
      case 'R':
        fde->ptr_enc = coz_read_u8(&a);
        break;
      case 'S':
        fde->signal_frame = true;
        break;
      default: /* 'B' (AArch64 BTI) and others: nothing to read here */
        break;
      }
    }
    if (a.bad)
      return false;
  }
  if (c.bad || fde->code_align == 0)
    return false;
  fde->cie_insns = c.p;
  fde->cie_insns_end = c.end;
  return true;
}

/* Parses the FDE at at (with its CIE); false if it does not cover pc. */
static bool parse_fde(const struct coz_unwind_object *o,
                      const unsigned char *at, uint64_t pc,
                      struct coz_fde *fde) {
  struct coz_cursor c = entry_body(at, o->eh_hi);
  uintptr_t id_field = coz_cursor_addr(&c);
  uint32_t cie_off = coz_read_u32(&c);
  if (c.bad || cie_off == 0 || cie_off > id_field - o->eh_lo)
    return false; /* a CIE, or a CIE pointer outside the segment */
  bool aug_z;
  if (!parse_cie((const unsigned char *)(id_field - cie_off), o->eh_hi, fde,
                 &aug_z))
    return false;
  uint64_t begin = coz_read_pointer(&c, fde->ptr_enc, 0);
  uint64_t range = coz_read_format(&c, fde->ptr_enc);
  if (aug_z)
    coz_take(&c, coz_read_uleb(&c));
  if (c.bad || pc < begin || pc - begin >= range)
    return false;
  fde->pc_begin = begin;
  fde->pc_end = begin + range;
  fde->fde_insns = c.p;
  fde->fde_insns_end = c.end;
  return true;
}

static int32_t table_word(const unsigned char *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

bool coz_eh_find_fde(const struct coz_unwind_object *o, uint64_t pc,
                     struct coz_fde *fde) {
  uint64_t hdr = (uintptr_t)o->hdr;
  /* The last entry whose initial location is <= pc. */
  uint64_t lo = 0, hi = o->fde_count;
  if (hi == 0 || hdr + (uint64_t)(int64_t)table_word(o->table) > pc)
    return false;
  while (hi - lo > 1) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (hdr + (uint64_t)(int64_t)table_word(o->table + 8 * mid) <= pc)
      lo = mid;
    else
      hi = mid;
  }
  uintptr_t at =
      (uintptr_t)(hdr + (uint64_t)(int64_t)table_word(o->table + 8 * lo + 4));
  if (at < o->eh_lo || at >= o->eh_hi)
    return false;
  return parse_fde(o, (const unsigned char *)at, pc, fde);
}
