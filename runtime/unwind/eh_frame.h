/* eh_frame.h: finding and parsing the frame description entry (FDE) of a
 * pc in a loaded object's .eh_frame, through the .eh_frame_hdr table.
 * Async-signal-safe; reads stay inside the object's .eh_frame segment. */
#ifndef COZ_UNWIND_EH_FRAME_H
#define COZ_UNWIND_EH_FRAME_H

#include "objects.h"

#include <stdbool.h>
#include <stdint.h>

/* What the CFA program interpreter needs of an FDE and its CIE. */
struct coz_fde {
  uint64_t pc_begin, pc_end; /* run-time code range the FDE covers */
  /* The CIE's initial instructions and the FDE's own, [start, end). */
  const unsigned char *cie_insns, *cie_insns_end;
  const unsigned char *fde_insns, *fde_insns_end;
  uint64_t code_align;
  int64_t data_align;
  uint64_t ra_column; /* the return address's DWARF column (16 on x86-64) */
  uint8_t ptr_enc;    /* encoding of addresses (DW_CFA_set_loc) */
  bool signal_frame;  /* augmentation 'S': a signal trampoline */
};

/* Fills *fde with the FDE of object o covering pc; false when there is
 * none or its data is malformed or uses what the stepper does not read. */
bool coz_eh_find_fde(const struct coz_unwind_object *o, uint64_t pc,
                     struct coz_fde *fde);

#endif /* COZ_UNWIND_EH_FRAME_H */
