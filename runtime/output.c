/* output.c: formats records as Coz's "type<TAB>key=value" lines or as JSON
 * lines (jansson), and appends them to the profile. */
#include "output.h"
#include "config.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int out_fd = -1;

bool coz_output_open(void) {
  const char *path = coz_config.OUTPUT;
  if (!*path) {
    coz_log_error("COZ_OUTPUT is empty: set it to a writable file path; "
                  "profiling is off, the program runs normally");
    return false;
  }
  out_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (out_fd < 0) {
    coz_log_error("cannot open the profile %s for appending (%s): set "
                  "COZ_OUTPUT to a writable path; profiling is off, the "
                  "program runs normally",
                  path, strerror(errno));
    return false;
  }
  return true;
}

const char *coz_output_path(void) { return coz_config.OUTPUT; }

static void append(struct coz_out *o, const char *s, size_t n) {
  if (o->failed)
    return;
  if (o->len + n + 1 > o->cap) {
    size_t cap = o->cap ? o->cap : 1024;
    while (o->len + n + 1 > cap)
      cap *= 2;
    char *b = realloc(o->buf, cap);
    if (!b) {
      o->failed = true;
      return;
    }
    o->buf = b;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, s, n);
  o->len += n;
  o->buf[o->len] = '\0';
}

/* Tabs and newlines would split a record: names never contain them in
 * practice, but a user-chosen name could. */
static void append_clean(struct coz_out *o, const char *s) {
  for (; *s; s++) {
    char c = (*s == '\t' || *s == '\n' || *s == '\r') ? ' ' : *s;
    append(o, &c, 1);
  }
}

static bool json_mode(void) { return coz_config.FORMAT == COZ_FORMAT_JSON; }

void coz_out_begin(struct coz_out *o, const char *type) {
  if (json_mode()) {
    o->json = json_object();
    json_object_set_new(o->json, "type", json_string(type));
  } else {
    append(o, type, strlen(type));
  }
}

void coz_out_str(struct coz_out *o, const char *key, const char *value) {
  if (json_mode()) {
    json_object_set_new(o->json, key, json_string(value ? value : ""));
    return;
  }
  append(o, "\t", 1);
  append(o, key, strlen(key));
  append(o, "=", 1);
  append_clean(o, value ? value : "");
}

void coz_out_u64(struct coz_out *o, const char *key, uint64_t value) {
  if (json_mode()) {
    json_object_set_new(o->json, key, json_integer((json_int_t)value));
    return;
  }
  char num[24];
  snprintf(num, sizeof num, "%llu", (unsigned long long)value);
  coz_out_str(o, key, num);
}

void coz_out_double(struct coz_out *o, const char *key, double value) {
  if (json_mode()) {
    json_object_set_new(o->json, key, json_real(value));
    return;
  }
  char num[32];
  snprintf(num, sizeof num, "%.2f", value);
  coz_out_str(o, key, num);
}

void coz_out_end(struct coz_out *o) {
  if (json_mode()) {
    char *s = json_dumps(o->json, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (s) {
      append(o, s, strlen(s));
      free(s);
    } else {
      o->failed = true;
    }
    json_decref(o->json);
    o->json = NULL;
  }
  append(o, "\n", 1);
}

void coz_out_flush(struct coz_out *o) {
  if (out_fd >= 0 && !o->failed && o->len > 0) {
    ssize_t n;
    do
      n = syscall(SYS_write, out_fd, o->buf, o->len); /* not interposed */
    while (n < 0 && errno == EINTR);
    /* A path that opens but does not take writes (/proc files, /dev/full,
     * a full disk): say so once, and keep the program running. */
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if ((n < 0 || (size_t)n != o->len) && !atomic_flag_test_and_set(&said))
      coz_log_error("cannot write the profile %s (%s): set COZ_OUTPUT to a "
                    "writable file; the profile is incomplete",
                    coz_config.OUTPUT, n < 0 ? strerror(errno) : "short write");
  }
  o->len = 0;
  o->failed = false;
}

void coz_out_free(struct coz_out *o) {
  free(o->buf);
  o->buf = NULL;
  o->len = o->cap = 0;
}
