/* libFuzzer target: the CFI stepper's decoders (runtime/unwind/) on bytes
 * they did not write: the .eh_frame_hdr reader (coz_unwind_read_hdr), CIE
 * and FDE parsing (coz_eh_find_fde) and the CFA program interpreter
 * (coz_cfa_row_at), with encoding.h's readers under all three.
 *
 * Input (made by bench/fuzz/make_seeds.py), little-endian: u32 offset of
 * .eh_frame_hdr in the segment, u32 seed of the probed pcs, u64 link-time
 * address of the segment, then the segment: a loaded object's bytes from
 * the first to the end of the last of .eh_frame_hdr and .eh_frame. The
 * segment is placed at its link-time address when that is free (so that
 * the absolute pc encodings of non-PIE code match the table), else
 * anywhere; either way only its own bytes are addressable (ASan poisons
 * the rest of its pages), and it is described to the decoders as the
 * object's only PT_LOAD segment: a read outside it, which in a profiled
 * program could fault, is a finding here.
 *
 * Pcs probed: at up to 64 table entries spread over the table, the
 * entry's location, the address before it and one a seeded distance past
 * it. Each FDE found must cover its pc and have its instructions inside
 * the segment; its CFA program then runs to the pc, to its first and to
 * its last address, and must refuse a pc past its end. */
#include "cfa_program.h"
#include "eh_frame.h"
#include "objects.h"

#include <sanitizer/asan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "fuzz_eh_frame: contract broken: %s\n", #cond);          \
      abort();                                                                 \
    }                                                                          \
  } while (0)

#define MAX_PROBES 64

#define HEADER 16
#define PAGE 4096u

static uint64_t le(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* The segment's memory: pages mapped at its link-time address, or a heap
 * block of its exact size. */
struct placed {
  unsigned char *seg;
  void *map;
  size_t map_len;
};

static struct placed place(const uint8_t *bytes, size_t size, uint64_t vaddr) {
  struct placed pl = {NULL, NULL, 0};
  /* Plausible non-PIE addresses only (PIE segments start near 0, which
   * cannot be mapped): above 1 MiB, below the top of user space. */
  if (vaddr >= (1u << 20) && vaddr < ((uint64_t)1 << 46)) {
    uint64_t lo = vaddr & ~(uint64_t)(PAGE - 1);
    uint64_t hi = (vaddr + size + PAGE - 1) & ~(uint64_t)(PAGE - 1);
    void *m = mmap((void *)(uintptr_t)lo, hi - lo, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m != MAP_FAILED && m != (void *)(uintptr_t)lo)
      munmap(m, hi - lo); /* a kernel that took the address as a hint */
    if (m != MAP_FAILED && m == (void *)(uintptr_t)lo) {
      pl.map = m;
      pl.map_len = hi - lo;
      pl.seg = (unsigned char *)(uintptr_t)vaddr;
      ASAN_POISON_MEMORY_REGION(m, vaddr - lo);
      ASAN_POISON_MEMORY_REGION(pl.seg + size, hi - (vaddr + size));
    }
  }
  if (!pl.seg)
    pl.seg = malloc(size);
  if (pl.seg)
    memcpy(pl.seg, bytes, size);
  return pl;
}

static void unplace(struct placed *pl) {
  if (pl->map) {
    ASAN_UNPOISON_MEMORY_REGION(pl->map, pl->map_len);
    munmap(pl->map, pl->map_len);
  } else {
    free(pl->seg);
  }
}

static bool inside(const struct coz_unwind_object *o, const unsigned char *lo,
                   const unsigned char *hi) {
  return (uintptr_t)lo >= o->eh_lo && lo <= hi && (uintptr_t)hi <= o->eh_hi;
}

static void probe(const struct coz_unwind_object *o, uint64_t pc) {
  struct coz_fde fde;
  if (!coz_eh_find_fde(o, pc, &fde))
    return;
  CHECK(fde.pc_begin <= pc && pc - fde.pc_begin < fde.pc_end - fde.pc_begin);
  CHECK(inside(o, fde.cie_insns, fde.cie_insns_end));
  CHECK(inside(o, fde.fde_insns, fde.fde_insns_end));
  CHECK(fde.code_align != 0);
  struct coz_cfi_row row;
  coz_cfa_row_at(&fde, pc, &row);
  coz_cfa_row_at(&fde, fde.pc_begin, &row);
  if (fde.pc_end > fde.pc_begin) {
    coz_cfa_row_at(&fde, fde.pc_end - 1, &row);
    CHECK(!coz_cfa_row_at(&fde, fde.pc_end, &row));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size <= HEADER)
    return 0;
  size_t seg_size = size - HEADER;
  size_t hdr_off = le(data, 4) % seg_size;
  uint64_t seed = le(data + 4, 4);
  struct placed pl = place(data + HEADER, seg_size, le(data + 8, 8));
  unsigned char *seg = pl.seg;
  if (!seg)
    return 0;
  ElfW(Phdr) ph = {.p_type = PT_LOAD, .p_vaddr = 0, .p_memsz = seg_size};
  struct dl_phdr_info info = {.dlpi_addr = (ElfW(Addr))(uintptr_t)seg,
                              .dlpi_name = "fuzz",
                              .dlpi_phdr = &ph,
                              .dlpi_phnum = 1};
  struct coz_unwind_object o;
  if (coz_unwind_read_hdr(&info, (uintptr_t)seg + hdr_off, &o)) {
    CHECK(o.eh_lo == (uintptr_t)seg && o.eh_hi == (uintptr_t)seg + seg_size);
    CHECK(o.table >= seg &&
          o.fde_count <= (size_t)(seg + seg_size - o.table) / 8);
    uint64_t step = o.fde_count / MAX_PROBES + 1;
    uint64_t hdr = (uintptr_t)o.hdr;
    for (uint64_t i = 0; i < o.fde_count; i += step) {
      int32_t loc;
      memcpy(&loc, o.table + 8 * i, 4);
      uint64_t pc = hdr + (uint64_t)(int64_t)loc;
      probe(&o, pc);
      probe(&o, pc - 1);
      probe(&o, pc + (seed >> (i % 16)) % 4096);
    }
  }
  unplace(&pl);
  return 0;
}
