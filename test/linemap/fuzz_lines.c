/* libFuzzer target: the DWARF line-program decoder (line_program.c) on
 * section bytes it did not write, and what the line map does with its
 * output (fuzz_sink.h: path normalization, the per-object table).
 *
 * Input layout (little-endian), made by bench/fuzz/make_seeds.py:
 *   u8  flags: 1 = file tables only, 2 = no comp_dir
 *   u16 length of comp_dir, u32 length of .debug_line_str, u32 length of
 *       .debug_str (each cut to what the input holds)
 *   comp_dir, .debug_line_str, .debug_str, then .debug_line to the end.
 * Each part is copied into its own allocation of exactly its size, so that
 * a read past a section's end is a finding even when another part follows
 * it in the input. Every unit of .debug_line is decoded, in order, as
 * coz_dwarf_read_lines would reach them through the units' stmt_list. */
#include "fuzz_sink.h"
#include "line_program.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER 11
#define MAX_UNITS 256

static uint64_t le(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* The next part of the input: *len bytes at most, copied (NULL if none). */
static uint8_t *take(const uint8_t **p, const uint8_t *end, size_t *len) {
  if (*len > (size_t)(end - *p))
    *len = (size_t)(end - *p);
  if (*len == 0)
    return NULL;
  uint8_t *copy = malloc(*len);
  if (copy)
    memcpy(copy, *p, *len);
  *p += *len;
  return copy;
}

/* Where the unit after the one at offset starts (0 when none). */
static uint64_t next_unit(const struct coz_line_sections *s, uint64_t offset) {
  if (s->line_size - offset < 4)
    return 0;
  uint64_t len = le(s->line + offset, 4), head = 4;
  if (len == 0xffffffffu) {
    if (s->line_size - offset < 12)
      return 0;
    len = le(s->line + offset + 4, 8);
    head = 12;
  }
  if (len > s->line_size - offset - head)
    return 0;
  return offset + head + len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < HEADER)
    return 0;
  uint8_t flags = data[0];
  size_t dir_len = (size_t)le(data + 1, 2);
  struct coz_line_sections s = {0};
  s.line_str_size = (size_t)le(data + 3, 4);
  s.str_size = (size_t)le(data + 7, 4);
  const uint8_t *p = data + HEADER, *end = data + size;
  uint8_t *dir = take(&p, end, &dir_len);
  uint8_t *line_str = take(&p, end, &s.line_str_size);
  uint8_t *str = take(&p, end, &s.str_size);
  s.line_size = (size_t)(end - p);
  uint8_t *line = take(&p, end, &s.line_size);
  s.line_str = line_str;
  s.str = str;
  s.line = line;
  /* comp_dir is a C string from libdwarf: cut at the first NUL. */
  char *comp_dir = NULL;
  if (!(flags & 2)) {
    comp_dir = calloc(1, dir_len + 1);
    if (comp_dir && dir)
      memcpy(comp_dir, dir, dir_len);
  }
  struct fuzz_sink fs;
  fuzz_sink_begin(&fs, false);
  uint64_t offset = 0;
  for (int u = 0; u < MAX_UNITS && line && offset < s.line_size; u++) {
    coz_line_program_decode(&s, offset, comp_dir, &fs.sink, flags & 1);
    offset = next_unit(&s, offset);
    if (offset == 0)
      break;
  }
  fuzz_sink_finish(&fs);
  free(comp_dir);
  free(dir);
  free(line_str);
  free(str);
  free(line);
  return 0;
}
