/* libFuzzer target: whole object files through the line map's reader
 * (dwarf_lines.c), as the runtime reads every loaded object: libdwarf and
 * libelf open the file, a file without a line table leads through its
 * .gnu_debuglink (or build ID) to a separate debug file, the sections are
 * found and decompressed, the units walked and their line programs
 * decoded into fuzz_sink.h's checks.
 *
 * Input (made by bench/fuzz/make_seeds.py): a mode byte (1: read the file
 * tables first, as with COZ_SOURCE_SCOPE; 2: refuse units whose name has
 * an odd length), a u32 (little-endian) length N, N bytes of the object,
 * then the separate debug file (possibly empty). They are written to
 * DIR/obj.so and DIR/obj.debug, the name the seeds' .gnu_debuglink
 * sections give, in a private temporary folder (under $TMPDIR, else /tmp)
 * removed at exit. */
#include "fuzz_sink.h"

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char g_dir[PATH_MAX], g_obj[PATH_MAX], g_debug[PATH_MAX];

static void cleanup(void) {
  unlink(g_obj);
  unlink(g_debug);
  rmdir(g_dir);
}

static void make_dir(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(g_dir, sizeof g_dir, "%s/coz-fuzz-open-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(g_dir)) {
    perror("fuzz_dwarf_open: mkdtemp");
    abort();
  }
  snprintf(g_obj, sizeof g_obj, "%s/obj.so", g_dir);
  snprintf(g_debug, sizeof g_debug, "%s/obj.debug", g_dir);
  atexit(cleanup);
}

/* Writes [p, p + n) to path; an empty part removes the file. */
static void put(const char *path, const uint8_t *p, size_t n) {
  if (n == 0) {
    unlink(path);
    return;
  }
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    perror("fuzz_dwarf_open: open");
    abort();
  }
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) {
      perror("fuzz_dwarf_open: write");
      abort();
    }
    p += w;
    n -= (size_t)w;
  }
  close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 5)
    return 0;
  if (!g_dir[0])
    make_dir();
  uint8_t mode = data[0];
  size_t n = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 |
             (size_t)data[4] << 24;
  if (n > size - 5)
    n = size - 5;
  put(g_obj, data + 5, n);
  put(g_debug, data + 5 + n, size - 5 - n);
  struct coz_dwarf_object *obj = coz_dwarf_open(g_obj);
  if (!obj)
    return 0;
  struct fuzz_sink fs;
  fuzz_sink_begin(&fs, mode & 2);
  if (mode & 1)
    coz_dwarf_read_lines(obj, &fs.sink, true);
  coz_dwarf_read_lines(obj, &fs.sink, false);
  coz_dwarf_close(obj);
  fuzz_sink_finish(&fs);
  return 0;
}
