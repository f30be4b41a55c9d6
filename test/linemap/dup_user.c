/* dup_user.c: a second unit with its own copy of dup_probe. */
#include "dup.h"

void dup_probe_other_unit(struct probe *p) { dup_probe(p); }
