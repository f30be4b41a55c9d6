/* cfa_program.c: see cfa_program.h.
 *
 * The CIE's initial instructions give the initial row (DW_CFA_restore goes
 * back to it); the FDE's instructions then run from pc_begin, and stop
 * before the first advance that moves the location past the pc. Rules of
 * registers other than rbp and the return address are decoded and
 * dropped. */
#include "cfa_program.h"

#include "encoding.h"

enum {
  /* Primary opcodes: the top two bits, the operand in the low six. */
  CFA_ADVANCE_LOC = 0x40,
  CFA_OFFSET = 0x80,
  CFA_RESTORE = 0xc0,
  /* Extended opcodes: the whole byte, top two bits 0. */
  CFA_NOP = 0x00,
  CFA_SET_LOC = 0x01,
  CFA_ADVANCE_LOC1 = 0x02,
  CFA_ADVANCE_LOC2 = 0x03,
  CFA_ADVANCE_LOC4 = 0x04,
  CFA_OFFSET_EXTENDED = 0x05,
  CFA_RESTORE_EXTENDED = 0x06,
  CFA_UNDEFINED = 0x07,
  CFA_SAME_VALUE = 0x08,
  CFA_REGISTER = 0x09,
  CFA_REMEMBER_STATE = 0x0a,
  CFA_RESTORE_STATE = 0x0b,
  CFA_DEF_CFA = 0x0c,
  CFA_DEF_CFA_REGISTER = 0x0d,
  CFA_DEF_CFA_OFFSET = 0x0e,
  CFA_DEF_CFA_EXPRESSION = 0x0f,
  CFA_EXPRESSION = 0x10,
  CFA_OFFSET_EXTENDED_SF = 0x11,
  CFA_DEF_CFA_SF = 0x12,
  CFA_DEF_CFA_OFFSET_SF = 0x13,
  CFA_VAL_OFFSET = 0x14,
  CFA_VAL_OFFSET_SF = 0x15,
  CFA_VAL_EXPRESSION = 0x16,
  CFA_GNU_ARGS_SIZE = 0x2e,
  CFA_GNU_NEGATIVE_OFFSET_EXTENDED = 0x2f,
};

/* Depth of DW_CFA_remember_state: compilers nest one or two. */
#define STATE_DEPTH 8

struct interp {
  const struct coz_fde *fde;
  uint64_t target; /* the pc whose row is wanted */
  uint64_t loc;    /* the location the current row starts at */
  struct coz_cfi_row row;
  const struct coz_cfi_row *initial; /* after the CIE; NULL while in it */
  struct coz_cfi_row saved[STATE_DEPTH];
  unsigned depth;
};

/* The rule of DWARF register reg, or NULL for a column not tracked. */
static struct coz_rule *column(struct coz_cfi_row *row, uint64_t reg,
                               const struct coz_fde *fde) {
  if (reg == fde->ra_column)
    return &row->ra;
  if (reg == COZ_DWARF_RBP)
    return &row->bp;
  return NULL;
}

static void set_rule(struct interp *in, uint64_t reg, uint8_t kind,
                     int64_t value) {
  struct coz_rule *r = column(&in->row, reg, in->fde);
  if (r) {
    r->kind = kind;
    r->value = value;
  }
}

static void restore_rule(struct interp *in, uint64_t reg) {
  struct coz_rule *r = column(&in->row, reg, in->fde);
  if (!r)
    return;
  if (in->initial)
    *r = *column((struct coz_cfi_row *)in->initial, reg, in->fde);
  else
    *r = (struct coz_rule){COZ_RULE_SAME, 0};
}

/* Moves the location by delta code units; false once it passes the
 * target (the current row is then the answer). */
static bool advance(struct interp *in, uint64_t delta) {
  uint64_t loc = in->loc + delta * in->fde->code_align;
  if (loc > in->target || loc < in->loc)
    return false;
  in->loc = loc;
  return true;
}

static void def_cfa(struct interp *in, uint64_t reg, int64_t offset) {
  in->row.cfa_defined = true;
  in->row.cfa_expression = false;
  in->row.cfa_reg = reg;
  in->row.cfa_offset = offset;
}

/* A factored offset times the data alignment, wrapping as the hardware
 * does: corrupt CFI can overflow the product, which in signed arithmetic
 * is undefined behaviour (the value is then garbage, and the stepper's
 * stack reads are bounds-checked anyway). */
static int64_t scaled(uint64_t factored, int64_t data_align) {
  return (int64_t)(factored * (uint64_t)data_align);
}

enum run_result { RUN_END, RUN_REACHED, RUN_BAD };

/* Runs the instructions in [p, end). */
static enum run_result run(struct interp *in, const unsigned char *p,
                           const unsigned char *end) {
  struct coz_cursor c = coz_cursor_at(p, end);
  int64_t daf = in->fde->data_align;
  while (c.p < c.end && !c.bad) {
    uint8_t op = coz_read_u8(&c);
    uint64_t reg, off;
    switch (op & 0xc0) {
    case CFA_ADVANCE_LOC:
      if (!advance(in, op & 0x3f))
        return RUN_REACHED;
      continue;
    case CFA_OFFSET:
      off = coz_read_uleb(&c);
      set_rule(in, op & 0x3f, COZ_RULE_OFFSET, scaled(off, daf));
      continue;
    case CFA_RESTORE:
      restore_rule(in, op & 0x3f);
      continue;
    }
    switch (op) {
    case CFA_NOP:
      break;
    case CFA_SET_LOC: {
      uint64_t loc = coz_read_pointer(&c, in->fde->ptr_enc, 0);
      if (c.bad)
        return RUN_BAD;
      if (loc > in->target)
        return RUN_REACHED;
      if (loc < in->loc)
        return RUN_BAD; /* locations only grow */
      in->loc = loc;
      break;
    }
    case CFA_ADVANCE_LOC1:
      if (!advance(in, coz_read_u8(&c)))
        return c.bad ? RUN_BAD : RUN_REACHED;
      break;
    case CFA_ADVANCE_LOC2:
      if (!advance(in, coz_read_u16(&c)))
        return c.bad ? RUN_BAD : RUN_REACHED;
      break;
    case CFA_ADVANCE_LOC4:
      if (!advance(in, coz_read_u32(&c)))
        return c.bad ? RUN_BAD : RUN_REACHED;
      break;
    case CFA_OFFSET_EXTENDED:
      reg = coz_read_uleb(&c);
      off = coz_read_uleb(&c);
      set_rule(in, reg, COZ_RULE_OFFSET, scaled(off, daf));
      break;
    case CFA_OFFSET_EXTENDED_SF:
      reg = coz_read_uleb(&c);
      set_rule(in, reg, COZ_RULE_OFFSET,
               scaled((uint64_t)coz_read_sleb(&c), daf));
      break;
    case CFA_GNU_NEGATIVE_OFFSET_EXTENDED:
      reg = coz_read_uleb(&c);
      off = coz_read_uleb(&c);
      set_rule(in, reg, COZ_RULE_OFFSET, scaled(0 - off, daf));
      break;
    case CFA_VAL_OFFSET:
      reg = coz_read_uleb(&c);
      off = coz_read_uleb(&c);
      set_rule(in, reg, COZ_RULE_VAL_OFFSET, scaled(off, daf));
      break;
    case CFA_VAL_OFFSET_SF:
      reg = coz_read_uleb(&c);
      set_rule(in, reg, COZ_RULE_VAL_OFFSET,
               scaled((uint64_t)coz_read_sleb(&c), daf));
      break;
    case CFA_RESTORE_EXTENDED:
      restore_rule(in, coz_read_uleb(&c));
      break;
    case CFA_UNDEFINED:
      set_rule(in, coz_read_uleb(&c), COZ_RULE_UNDEFINED, 0);
      break;
    case CFA_SAME_VALUE:
      set_rule(in, coz_read_uleb(&c), COZ_RULE_SAME, 0);
      break;
    case CFA_REGISTER:
      reg = coz_read_uleb(&c);
      set_rule(in, reg, COZ_RULE_REGISTER, (int64_t)coz_read_uleb(&c));
      break;
    case CFA_REMEMBER_STATE:
      if (in->depth == STATE_DEPTH)
        return RUN_BAD;
      in->saved[in->depth++] = in->row;
      break;
    case CFA_RESTORE_STATE:
      /* The whole row comes back, the CFA rule included (what compilers
       * expect after an epilogue in the middle of a function). */
      if (in->depth == 0)
        return RUN_BAD;
      in->row = in->saved[--in->depth];
      break;
    case CFA_DEF_CFA:
      reg = coz_read_uleb(&c);
      def_cfa(in, reg, (int64_t)coz_read_uleb(&c));
      break;
    case CFA_DEF_CFA_SF:
      reg = coz_read_uleb(&c);
      def_cfa(in, reg, scaled((uint64_t)coz_read_sleb(&c), daf));
      break;
    case CFA_DEF_CFA_REGISTER:
      reg = coz_read_uleb(&c);
      if (!in->row.cfa_defined || in->row.cfa_expression)
        return RUN_BAD; /* no offset to keep */
      in->row.cfa_reg = reg;
      break;
    case CFA_DEF_CFA_OFFSET:
      off = coz_read_uleb(&c);
      if (!in->row.cfa_defined || in->row.cfa_expression)
        return RUN_BAD;
      in->row.cfa_offset = (int64_t)off;
      break;
    case CFA_DEF_CFA_OFFSET_SF:
      off = (uint64_t)scaled((uint64_t)coz_read_sleb(&c), daf);
      if (!in->row.cfa_defined || in->row.cfa_expression)
        return RUN_BAD;
      in->row.cfa_offset = (int64_t)off;
      break;
    case CFA_DEF_CFA_EXPRESSION:
      /* Kept as "expression": a row that uses it cannot be stepped, but a
       * later row of the same FDE may define a plain CFA again. */
      coz_take(&c, coz_read_uleb(&c));
      in->row.cfa_defined = true;
      in->row.cfa_expression = true;
      break;
    case CFA_EXPRESSION:
    case CFA_VAL_EXPRESSION:
      reg = coz_read_uleb(&c);
      coz_take(&c, coz_read_uleb(&c));
      set_rule(in, reg, COZ_RULE_UNSUPPORTED, 0);
      break;
    case CFA_GNU_ARGS_SIZE:
      /* Only matters to landing pads; the CFA already accounts for it. */
      coz_read_uleb(&c);
      break;
    default:
      return RUN_BAD; /* unknown (vendor) opcode: its operands are unknown */
    }
  }
  return c.bad ? RUN_BAD : RUN_END;
}

bool coz_cfa_row_at(const struct coz_fde *fde, uint64_t pc,
                    struct coz_cfi_row *row) {
  if (pc < fde->pc_begin || pc >= fde->pc_end)
    return false;
  struct interp in;
  in.fde = fde;
  in.target = pc;
  in.loc = fde->pc_begin;
  in.depth = 0;
  in.initial = NULL;
  in.row = (struct coz_cfi_row){
      false, false, 0, 0, {COZ_RULE_SAME, 0}, {COZ_RULE_UNDEFINED, 0}};
  if (run(&in, fde->cie_insns, fde->cie_insns_end) != RUN_END)
    return false; /* a CIE's instructions never advance */
  struct coz_cfi_row initial = in.row;
  in.initial = &initial;
  in.depth = 0;
  if (run(&in, fde->fde_insns, fde->fde_insns_end) == RUN_BAD)
    return false;
  *row = in.row;
  return true;
}
