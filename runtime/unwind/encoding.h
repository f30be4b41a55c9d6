/* encoding.h: bounded reading of the byte formats of .eh_frame and
 * .eh_frame_hdr (fixed-size integers, LEB128, DW_EH_PE pointer encodings).
 *
 * A cursor never reads at or past its end: a read that would sets `bad`
 * and yields 0, and every later read on that cursor fails too, so parsers
 * check once after a group of fields instead of after each one. Cursors
 * point into loaded, read-only object memory; the end is the end of the
 * loaded segment (or of the entry) being parsed, which is what keeps
 * corrupt data from faulting. Async-signal-safe. */
#ifndef COZ_UNWIND_ENCODING_H
#define COZ_UNWIND_ENCODING_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct coz_cursor {
  const unsigned char *p, *end;
  bool bad;
};

/* DW_EH_PE_*: low nibble the value format, bits 4-6 what it is relative
 * to, bit 7 an indirection. */
enum {
  COZ_PE_ABSPTR = 0x00,
  COZ_PE_ULEB128 = 0x01,
  COZ_PE_UDATA2 = 0x02,
  COZ_PE_UDATA4 = 0x03,
  COZ_PE_UDATA8 = 0x04,
  COZ_PE_SLEB128 = 0x09,
  COZ_PE_SDATA2 = 0x0a,
  COZ_PE_SDATA4 = 0x0b,
  COZ_PE_SDATA8 = 0x0c,
  COZ_PE_PCREL = 0x10,
  COZ_PE_TEXTREL = 0x20,
  COZ_PE_DATAREL = 0x30,
  COZ_PE_FUNCREL = 0x40,
  COZ_PE_ALIGNED = 0x50,
  COZ_PE_INDIRECT = 0x80,
  COZ_PE_OMIT = 0xff,
};

static inline struct coz_cursor coz_cursor_at(const void *p, const void *end) {
  struct coz_cursor c = {p, end, p > end};
  return c;
}

static inline uintptr_t coz_cursor_addr(const struct coz_cursor *c) {
  return (uintptr_t)c->p;
}

/* Takes n bytes; NULL (and bad) if fewer are left. */
static inline const unsigned char *coz_take(struct coz_cursor *c, uint64_t n) {
  if (c->bad || (uint64_t)(c->end - c->p) < n) {
    c->bad = true;
    return NULL;
  }
  const unsigned char *at = c->p;
  c->p += n;
  return at;
}

static inline uint64_t coz_read_fixed(struct coz_cursor *c, unsigned n) {
  const unsigned char *at = coz_take(c, n);
  if (!at)
    return 0;
  uint64_t v = 0;
  memcpy(&v, at, n); /* little-endian targets only (x86-64) */
  return v;
}

static inline uint8_t coz_read_u8(struct coz_cursor *c) {
  return (uint8_t)coz_read_fixed(c, 1);
}
static inline uint16_t coz_read_u16(struct coz_cursor *c) {
  return (uint16_t)coz_read_fixed(c, 2);
}
static inline uint32_t coz_read_u32(struct coz_cursor *c) {
  return (uint32_t)coz_read_fixed(c, 4);
}
static inline uint64_t coz_read_u64(struct coz_cursor *c) {
  return coz_read_fixed(c, 8);
}

static inline uint64_t coz_read_uleb(struct coz_cursor *c) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    const unsigned char *b = coz_take(c, 1);
    if (!b)
      return 0;
    if (shift < 64)
      v |= (uint64_t)(*b & 0x7f) << shift;
    if (!(*b & 0x80))
      return v;
  }
}

static inline int64_t coz_read_sleb(struct coz_cursor *c) {
  uint64_t v = 0;
  unsigned shift = 0;
  for (;;) {
    const unsigned char *b = coz_take(c, 1);
    if (!b)
      return 0;
    if (shift < 64)
      v |= (uint64_t)(*b & 0x7f) << shift;
    shift += 7;
    if (!(*b & 0x80)) {
      if (shift < 64 && (*b & 0x40))
        v |= ~0ull << shift; /* sign-extend */
      return (int64_t)v;
    }
  }
}

/* Reads a value in the format of enc's low nibble, without applying its
 * relative part (what a pc_range or a skipped field needs). */
static inline uint64_t coz_read_format(struct coz_cursor *c, uint8_t enc) {
  switch (enc & 0x0f) {
  case COZ_PE_ABSPTR:
  case COZ_PE_UDATA8:
  case COZ_PE_SDATA8:
    return coz_read_u64(c);
  case COZ_PE_ULEB128:
    return coz_read_uleb(c);
  case COZ_PE_UDATA2:
    return coz_read_u16(c);
  case COZ_PE_UDATA4:
    return coz_read_u32(c);
  case COZ_PE_SLEB128:
    return (uint64_t)coz_read_sleb(c);
  case COZ_PE_SDATA2:
    return (uint64_t)(int64_t)(int16_t)coz_read_u16(c);
  case COZ_PE_SDATA4:
    return (uint64_t)(int64_t)(int32_t)coz_read_u32(c);
  default:
    c->bad = true;
    return 0;
  }
}

/* Reads an encoded pointer. datarel is the base of DW_EH_PE_datarel (the
 * start of .eh_frame_hdr for its table; 0 where the caller knows none).
 * Indirect, text- and function-relative pointers are not needed for
 * unwinding (only personality routines use them) and fail. */
static inline uint64_t coz_read_pointer(struct coz_cursor *c, uint8_t enc,
                                        uint64_t datarel) {
  if (enc == COZ_PE_OMIT || (enc & COZ_PE_INDIRECT)) {
    c->bad = true;
    return 0;
  }
  uint64_t field = coz_cursor_addr(c);
  uint64_t base;
  switch (enc & 0x70) {
  case 0:
    base = 0;
    break;
  case COZ_PE_PCREL:
    base = field;
    break;
  case COZ_PE_DATAREL:
    if (!datarel) {
      c->bad = true;
      return 0;
    }
    base = datarel;
    break;
  case COZ_PE_ALIGNED: {
    uint64_t skip = (8 - (field & 7)) & 7;
    coz_take(c, skip);
    return coz_read_u64(c);
  }
  default:
    c->bad = true;
    return 0;
  }
  return base + coz_read_format(c, enc);
}

/* Skips an encoded pointer (an augmentation field the stepper does not
 * use, such as the personality routine). */
static inline void coz_skip_pointer(struct coz_cursor *c, uint8_t enc) {
  if (enc == COZ_PE_OMIT)
    return;
  if ((enc & 0x70) == COZ_PE_ALIGNED) {
    coz_take(c, (8 - (coz_cursor_addr(c) & 7)) & 7);
    coz_read_u64(c);
    return;
  }
  coz_read_format(c, enc);
}

#endif /* COZ_UNWIND_ENCODING_H */
