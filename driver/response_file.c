/* response_file.c: see response_file.h. The rules are those of LLVM's
 * cl::ExpandResponseFiles with its GNU tokenizer, which clang uses on Linux;
 * test/driver/response_quoting.py compares the two on tricky files. */
#include "response_file.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct text {
  char *bytes;
  size_t size;
};

static int read_whole_file(const char *path, struct text *t) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  size_t size = 0, capacity = 4096;
  char *bytes = xmalloc(capacity);
  size_t n;
  while ((n = fread(bytes + size, 1, capacity - size, f)) > 0) {
    size += n;
    if (size == capacity) {
      char *bigger = xmalloc(capacity * 2);
      memcpy(bigger, bytes, size);
      free(bytes);
      bytes = bigger;
      capacity *= 2;
    }
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    free(bytes);
    return -1;
  }
  t->bytes = bytes;
  t->size = size;
  return 0;
}

/* Appends code point `cp` to `out` in UTF-8. */
static char *put_utf8(char *out, uint32_t cp) {
  if (cp < 0x80) {
    *out++ = (char)cp;
  } else if (cp < 0x800) {
    *out++ = (char)(0xc0 | cp >> 6);
    *out++ = (char)(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *out++ = (char)(0xe0 | cp >> 12);
    *out++ = (char)(0x80 | (cp >> 6 & 0x3f));
    *out++ = (char)(0x80 | (cp & 0x3f));
  } else {
    *out++ = (char)(0xf0 | cp >> 18);
    *out++ = (char)(0x80 | (cp >> 12 & 0x3f));
    *out++ = (char)(0x80 | (cp >> 6 & 0x3f));
    *out++ = (char)(0x80 | (cp & 0x3f));
  }
  return out;
}

/* UTF-16 text after its byte order mark, as UTF-8 (what clang reads files
 * written by Windows tools as). -1 on an odd size or a lone surrogate. */
static int utf16_to_utf8(struct text *t) {
  const unsigned char *in = (const unsigned char *)t->bytes;
  size_t units = t->size / 2;
  if (t->size % 2)
    return -1;
  int big_endian = in[0] == 0xfe;
  char *utf8 = xmalloc(units * 3 + 1), *out = utf8;
  for (size_t i = 1; i < units; i++) {
    const unsigned char *u = in + 2 * i;
    uint32_t cp = big_endian ? (uint32_t)(u[0] << 8 | u[1])
                             : (uint32_t)(u[1] << 8 | u[0]);
    if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < units) {
      const unsigned char *v = u + 2;
      uint32_t lo = big_endian ? (uint32_t)(v[0] << 8 | v[1])
                               : (uint32_t)(v[1] << 8 | v[0]);
      if (lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    if (cp >= 0xd800 && cp < 0xe000) {
      free(utf8);
      return -1;
    }
    out = put_utf8(out, cp);
  }
  free(t->bytes);
  t->bytes = utf8;
  t->size = (size_t)(out - utf8);
  return 0;
}

/* Drops a UTF-8 byte order mark; converts UTF-16 with one. */
static int normalize_encoding(struct text *t) {
  const unsigned char *b = (const unsigned char *)t->bytes;
  if (t->size >= 2 &&
      ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff)))
    return utf16_to_utf8(t);
  if (t->size >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) {
    memmove(t->bytes, t->bytes + 3, t->size - 3);
    t->size -= 3;
  }
  return 0;
}

/* LLVM's whitespace: not \f or \v, which stay inside a token. */
static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Splits `t` in place the GNU way, as LLVM does: blanks separate, quotes
 * group, a backslash takes the next character literally (inside single
 * quotes too), and an empty token ('' or "") is no argument. A NUL byte is
 * kept like any other, so the argument ends there. */
static void tokenize_gnu(struct text *t, struct arg_list *tokens) {
  char *in = t->bytes, *end = t->bytes + t->size;
  char *token = xmalloc(t->size + 1);
  size_t n = 0;
  while (in < end) {
    char c = *in++;
    if (c == '\\' && in < end) {
      token[n++] = *in++;
    } else if (c == '"' || c == '\'') {
      while (in < end && *in != c) {
        if (*in == '\\' && in + 1 < end)
          in++;
        token[n++] = *in++;
      }
      if (in < end)
        in++; /* the closing quote; an unclosed one runs to the end */
    } else if (!is_blank(c)) {
      token[n++] = c;
    } else if (n > 0) {
      token[n] = '\0';
      arg_list_push(tokens, token);
      n = 0;
    }
  }
  if (n > 0) {
    token[n] = '\0';
    arg_list_push(tokens, token);
  }
  free(token);
}

/* The files being expanded, innermost first: a file met again inside
 * itself is a loop, which clang (15 on) refuses. */
struct open_file {
  const char *path;
  dev_t dev;
  ino_t ino;
  const struct open_file *outer;
};

static int expand_nested(const char *path, struct arg_list *out,
                         const struct open_file *outer, const char *tool) {
  struct stat st;
  struct text t;
  if (stat(path, &st) != 0 || read_whole_file(path, &t) != 0)
    return -1;
  for (const struct open_file *f = outer; f; f = f->outer)
    if (f->dev == st.st_dev && f->ino == st.st_ino) {
      fprintf(stderr,
              "%s: response file '%s' is included again inside itself "
              "(as @%s in '%s'): remove the loop\n",
              tool, f->path, path, outer->path);
      exit(1);
    }
  struct open_file self = {path, st.st_dev, st.st_ino, outer};
  struct arg_list tokens = {0};
  int decoded = normalize_encoding(&t) == 0; /* else left to clang */
  if (decoded)
    tokenize_gnu(&t, &tokens);
  free(t.bytes);
  if (!decoded)
    return -1;
  for (size_t i = 0; i < tokens.count; i++) {
    const char *arg = tokens.items[i];
    if (arg[0] == '@' && expand_nested(arg + 1, out, &self, tool) == 0)
      continue;
    arg_list_push(out, arg);
  }
  arg_list_free(&tokens);
  return 0;
}

int response_file_expand(const char *path, struct arg_list *out,
                         const char *tool) {
  return expand_nested(path, out, NULL, tool);
}
