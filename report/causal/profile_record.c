/* profile_record.c: the two syntaxes of a profile line.
 *
 * Coz writes `type<TAB>key=value<TAB>...`; with JSON output each line is an
 * object with the same keys plus "type". Both become one cr_record of
 * NUL-terminated strings, so the record semantics (profile_parse.c) are
 * written once. Strings are sanitised on the way in: invalid UTF-8 bytes and
 * control characters become '?', so no later output (terminal, JSON, HTML)
 * ever sees them.
 */
#include "profile_record.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cr_record_init(struct cr_record *r) { memset(r, 0, sizeof *r); }

void cr_record_free(struct cr_record *r) {
  free(r->arena);
  memset(r, 0, sizeof *r);
}

static const char *fail(struct cr_record *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->err, sizeof r->err, fmt, ap);
  va_end(ap);
  return r->err;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  size_t len;
  uint32_t cp;
  if (s[0] < 0x80)
    return 1;
  if ((s[0] & 0xe0) == 0xc0)
    len = 2, cp = s[0] & 0x1f;
  else if ((s[0] & 0xf0) == 0xe0)
    len = 3, cp = s[0] & 0x0f;
  else if ((s[0] & 0xf8) == 0xf0)
    len = 4, cp = s[0] & 0x07;
  else
    return 0;
  if (len > n)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  /* Reject overlong forms, surrogates and values past U+10FFFF. */
  static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return len;
}

/* Copies s[0..n) into the arena, sanitised and NUL-terminated. */
static const char *arena_copy(struct cr_record *r, const char *s, size_t n) {
  if (r->arena_len + n + 1 > r->arena_cap) {
    /* Strings already handed out point into the arena, so it never moves
     * during one record: reserve the whole line up front (see callers). */
    return NULL;
  }
  char *out = r->arena + r->arena_len;
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    const unsigned char *u = (const unsigned char *)s + i;
    size_t l = utf8_len(u, n - i);
    if (l == 0 || u[0] < 0x20 || u[0] == 0x7f) {
      out[o++] = '?';
      i++;
      continue;
    }
    memcpy(out + o, u, l);
    o += l;
    i += l;
  }
  out[o] = '\0';
  r->arena_len += o + 1;
  return out;
}

/* Makes room for `need` bytes of strings in this record. */
static int arena_reserve(struct cr_record *r, size_t need) {
  r->arena_len = 0;
  r->n_fields = 0;
  r->type = NULL;
  if (need <= r->arena_cap)
    return 0;
  char *a = realloc(r->arena, need);
  if (!a)
    return -1;
  r->arena = a;
  r->arena_cap = need;
  return 0;
}

/* How much of the field [f, fe) to quote in a message: at most 40 bytes. */
static int snippet(const char *f, const char *fe) {
  return fe - f > 40 ? 40 : (int)(fe - f);
}

static const char *parse_tabbed(struct cr_record *r, const char *line,
                                size_t len) {
  /* Every string is a sub-range of the line: the line's length plus one NUL
   * per field bounds the arena. */
  if (arena_reserve(r, 2 * len + 2))
    return "out of memory";
  const char *end = line + len;
  const char *tab = memchr(line, '\t', len);
  const char *type_end = tab ? tab : end;
  r->type = arena_copy(r, line, (size_t)(type_end - line));
  for (const char *f = tab ? tab + 1 : end; f < end;) {
    const char *fe = memchr(f, '\t', (size_t)(end - f));
    if (!fe)
      fe = end;
    if (fe > f) { /* empty fields (e.g. a trailing tab) are harmless */
      const char *eq = memchr(f, '=', (size_t)(fe - f));
      if (!eq)
        return fail(r, "field '%.*s' is not key=value", snippet(f, fe), f);
      if (eq == f)
        return fail(r, "field '%.*s' has an empty key", snippet(f, fe), f);
      if (r->n_fields == CR_MAX_FIELDS)
        return fail(r, "more than %d fields", CR_MAX_FIELDS);
      r->key[r->n_fields] = arena_copy(r, f, (size_t)(eq - f));
      r->val[r->n_fields] = arena_copy(r, eq + 1, (size_t)(fe - eq - 1));
      r->n_fields++;
    }
    f = fe + 1;
  }
  return NULL;
}

static const char *parse_json(struct cr_record *r, const char *line,
                              size_t len) {
  json_error_t jerr;
  json_t *obj = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
  if (!obj)
    return fail(r, "invalid JSON at column %d: %s", jerr.column, jerr.text);
  const char *msg = NULL;
  /* Numbers print in at most 32 bytes; strings are no longer than the line. */
  if (!json_is_object(obj)) {
    msg = "a JSON line must be an object";
  } else if (json_object_size(obj) > CR_MAX_FIELDS + 1) {
    msg = fail(r, "more than %d fields", CR_MAX_FIELDS);
  } else if (arena_reserve(r, 2 * len + 40 * (CR_MAX_FIELDS + 1) + 2)) {
    msg = "out of memory";
  } else {
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
      char num[40];
      const char *s;
      size_t n;
      if (json_is_string(v)) {
        s = json_string_value(v);
        n = json_string_length(v);
      } else if (json_is_integer(v)) {
        n = (size_t)snprintf(num, sizeof num, "%lld",
                             (long long)json_integer_value(v));
        s = num;
      } else if (json_is_real(v)) {
        n = (size_t)snprintf(num, sizeof num, "%.17g", json_real_value(v));
        s = num;
      } else {
        msg = fail(r, "key '%.40s' must be a string or a number", key);
        break;
      }
      const char *copy = arena_copy(r, s, n);
      if (strcmp(key, "type") == 0) {
        if (!json_is_string(v)) {
          msg = "\"type\" must be a string";
          break;
        }
        r->type = copy;
      } else if (r->n_fields == CR_MAX_FIELDS) {
        msg = fail(r, "more than %d fields", CR_MAX_FIELDS);
        break;
      } else {
        r->key[r->n_fields] = arena_copy(r, key, strlen(key));
        r->val[r->n_fields] = copy;
        r->n_fields++;
      }
    }
    if (!msg && !r->type)
      msg = "JSON record has no \"type\"";
  }
  json_decref(obj);
  return msg;
}

const char *cr_record_parse_line(struct cr_record *r, const char *line,
                                 size_t len) {
  if (len > 0 && line[len - 1] == '\r')
    len--;
  if (len > 0 && line[0] == '{')
    return parse_json(r, line, len);
  return parse_tabbed(r, line, len);
}

const char *cr_record_get(const struct cr_record *r, const char *key) {
  for (size_t i = 0; i < r->n_fields; i++)
    if (strcmp(r->key[i], key) == 0)
      return r->val[i];
  return NULL;
}
