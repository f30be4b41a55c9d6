/* config.h: the runtime's configuration, read once from the environment.
 * The struct is generated from flags.def, so a flag is added in one place;
 * fields keep the flag's name (coz_config.PERIOD is COZ_PERIOD). */
#ifndef COZ_CONFIG_H
#define COZ_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

/* Values of the CHOICE flags, in the order of their word lists. */
enum coz_format { COZ_FORMAT_COZ, COZ_FORMAT_JSON };
enum coz_sampler_kind { COZ_SAMPLER_AUTO, COZ_SAMPLER_PERF, COZ_SAMPLER_TIMER };
#define COZ_CHOICES_FORMAT "coz|json"
#define COZ_CHOICES_SAMPLER "auto|perf|timer"

#define COZ_CTYPE_STR const char * /* never NULL; "" if unset */
#define COZ_CTYPE_U64 uint64_t
#define COZ_CTYPE_BOOL bool
#define COZ_CTYPE_PCT int            /* -1 if unset */
#define COZ_CTYPE_CHOICE_FORMAT int  /* enum coz_format */
#define COZ_CTYPE_CHOICE_SAMPLER int /* enum coz_sampler_kind */

struct coz_config {
#define COZ_FLAG(NAME, TYPE, DEFAULT, DESC) COZ_CTYPE_##TYPE NAME;
#include "flags.def"
#undef COZ_FLAG
};

extern struct coz_config coz_config;

/* Which flags the environment set (the rest hold their defaults): a
 * problem with a setting the user chose is an error, with a default only
 * a notice (util.h). */
struct coz_config_given {
#define COZ_FLAG(NAME, TYPE, DEFAULT, DESC) bool NAME;
#include "flags.def"
#undef COZ_FLAG
};
extern struct coz_config_given coz_config_given;

/* Parses every COZ_* flag. Returns false after printing one line on stderr
 * for the first bad value; the caller then leaves profiling off. envp is
 * the environment (preinit functions receive it before environ is set). */
bool coz_config_load(char *const *envp);

#endif /* COZ_CONFIG_H */
