/* arg_list.c: see arg_list.h. */
#include "arg_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void) {
  fputs("coz-cc: out of memory while building the clang command line\n",
        stderr);
  exit(1);
}

void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

char *xstrdup(const char *text) {
  size_t n = strlen(text) + 1;
  char *copy = xmalloc(n);
  memcpy(copy, text, n);
  return copy;
}

char *xconcat(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  char *joined = xmalloc(na + nb + 1);
  memcpy(joined, a, na);
  memcpy(joined + na, b, nb + 1);
  return joined;
}

static void push_owned(struct arg_list *list, char *arg) {
  if (list->count + 2 > list->capacity) {
    size_t capacity = list->capacity ? list->capacity * 2 : 16;
    char **items = realloc(list->items, capacity * sizeof *items);
    if (!items)
      out_of_memory();
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->count++] = arg;
  list->items[list->count] = NULL;
}

void arg_list_push(struct arg_list *list, const char *arg) {
  push_owned(list, xstrdup(arg));
}

void arg_list_extend(struct arg_list *list, const struct arg_list *other) {
  for (size_t i = 0; i < other->count; i++)
    arg_list_push(list, other->items[i]);
}

void arg_list_push_joined(struct arg_list *list, const char *prefix,
                          const char *value) {
  push_owned(list, xconcat(prefix, value));
}

void arg_list_free(struct arg_list *list) {
  for (size_t i = 0; i < list->count; i++)
    free(list->items[i]);
  free(list->items);
  list->items = NULL;
  list->count = list->capacity = 0;
}
