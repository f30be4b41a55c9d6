/* arg_list.h: a growable, NULL-terminated argument vector.
 *
 * The driver builds clang's command line piece by piece; this keeps the
 * bookkeeping (growth, termination, ownership) in one place. Allocation
 * failure ends the driver with one line: there is nothing to recover. */
#ifndef COZ_DRIVER_ARG_LIST_H
#define COZ_DRIVER_ARG_LIST_H

#include <stddef.h>

struct arg_list {
  char **items; /* always NULL-terminated once anything was pushed */
  size_t count;
  size_t capacity;
};

/* Appends a copy of `arg`. */
void arg_list_push(struct arg_list *list, const char *arg);

/* Appends a copy of every item of `other`, in order. */
void arg_list_extend(struct arg_list *list, const struct arg_list *other);

/* Appends "<prefix><value>" as one argument. */
void arg_list_push_joined(struct arg_list *list, const char *prefix,
                          const char *value);

void arg_list_free(struct arg_list *list);

/* Memory helpers shared by the driver: they never return NULL. */
void *xmalloc(size_t size);
char *xstrdup(const char *text);
char *xconcat(const char *a, const char *b);

#endif
