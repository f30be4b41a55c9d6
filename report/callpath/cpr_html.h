/* cpr_html.h: the call-path sections of the causal report's
 * HTML page. */
#ifndef COZ_REPORT_CPR_HTML_H
#define COZ_REPORT_CPR_HTML_H

#include <stddef.h>
#include <stdio.h>

/* The HTML page's call-path sections: the call-path file beside each
 * causal profile (NAME.coz -> NAME.callpath, else profile.callpath in the
 * same directory), an icicle view per resource; nothing when none exists. */
void cpr_write_html_sections(FILE *f, const char *const *inputs, size_t n);

#endif /* COZ_REPORT_CPR_HTML_H */
