/* response_file.c: see response_file.h. */
#include "response_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deep enough for any real build, small enough to stop self-including files. */
enum { MAX_NESTING = 16 };

static char *read_whole_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t size = 0, capacity = 4096;
  char *text = xmalloc(capacity);
  size_t n;
  while ((n = fread(text + size, 1, capacity - size - 1, f)) > 0) {
    size += n;
    if (capacity - size - 1 == 0) {
      char *bigger = xmalloc(capacity * 2);
      memcpy(bigger, text, size);
      free(text);
      text = bigger;
      capacity *= 2;
    }
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    free(text);
    return NULL;
  }
  text[size] = '\0';
  return text;
}

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

/* Splits `text` in place the GNU way: blanks separate, quotes group, and a
 * backslash takes the next character literally (inside double quotes too). */
static void tokenize_gnu(char *text, struct arg_list *tokens) {
  char *in = text;
  while (*in) {
    while (is_blank(*in))
      in++;
    if (!*in)
      break;
    char *out = in, *start = in;
    char quote = 0;
    while (*in && (quote || !is_blank(*in))) {
      char c = *in++;
      if (quote && c == quote) {
        quote = 0;
      } else if (!quote && (c == '"' || c == '\'')) {
        quote = c;
      } else if (c == '\\' && *in && quote != '\'') {
        *out++ = *in++;
      } else {
        *out++ = c;
      }
    }
    if (*in)
      in++; /* the blank that ended the token */
    *out = '\0';
    arg_list_push(tokens, start);
  }
}

static int expand_nested(const char *path, struct arg_list *out, int depth) {
  char *text = read_whole_file(path);
  if (!text)
    return -1;
  struct arg_list tokens = {0};
  tokenize_gnu(text, &tokens);
  free(text);
  for (size_t i = 0; i < tokens.count; i++) {
    const char *arg = tokens.items[i];
    if (arg[0] == '@' && depth < MAX_NESTING &&
        expand_nested(arg + 1, out, depth + 1) == 0)
      continue;
    arg_list_push(out, arg);
  }
  arg_list_free(&tokens);
  return 0;
}

int response_file_expand(const char *path, struct arg_list *out) {
  return expand_nested(path, out, 0);
}
