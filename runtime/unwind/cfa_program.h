/* cfa_program.h: runs an FDE's call frame instructions (DWARF 4, 6.4.2)
 * up to a pc and gives the row in effect there: how to compute the CFA,
 * and where the caller's rbp and return address are. Async-signal-safe. */
#ifndef COZ_UNWIND_CFA_PROGRAM_H
#define COZ_UNWIND_CFA_PROGRAM_H

#include "eh_frame.h"

#include <stdbool.h>
#include <stdint.h>

enum coz_rule_kind {
  COZ_RULE_SAME,        /* unchanged from the frame below (the default) */
  COZ_RULE_UNDEFINED,   /* no value: for the return address, no caller */
  COZ_RULE_OFFSET,      /* saved at CFA + value */
  COZ_RULE_VAL_OFFSET,  /* is CFA + value */
  COZ_RULE_REGISTER,    /* is in DWARF register value */
  COZ_RULE_UNSUPPORTED, /* a DWARF expression: not evaluated */
};

struct coz_rule {
  uint8_t kind; /* enum coz_rule_kind */
  int64_t value;
};

/* The row of the CFI table for one pc, for the columns the stepper uses.
 * The CFA is register cfa_reg + cfa_offset unless it is an expression. */
struct coz_cfi_row {
  bool cfa_defined;
  bool cfa_expression;
  uint64_t cfa_reg;
  int64_t cfa_offset;
  struct coz_rule bp; /* DWARF 6 on x86-64 */
  struct coz_rule ra; /* fde->ra_column */
};

#define COZ_DWARF_RBP 6
#define COZ_DWARF_RSP 7

/* The row of fde in effect at pc (pc_begin <= pc < pc_end). False when the
 * instructions are malformed or use an operation this interpreter does not
 * know (it then cannot tell which row applies). */
bool coz_cfa_row_at(const struct coz_fde *fde, uint64_t pc,
                    struct coz_cfi_row *row);

#endif /* COZ_UNWIND_CFA_PROGRAM_H */
