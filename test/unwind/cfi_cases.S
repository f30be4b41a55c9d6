/* cfi_cases.S: functions with hand-written CFI for the stepper test, each
 * exercising rules that compilers emit but not on demand. Each one stops at
 * a capture point: it stores its pc, rsp and rbp there in asm_cap (with,
 * as ground truth, its return address read from the layout it built
 * itself), then calls probe_capture() (stepper_test.c), which unwinds from
 * those registers over the live stack: the frames above the captured rsp
 * are intact during the call. */
#if defined(__x86_64__)

	.bss
	.globl asm_cap
	.type asm_cap, @object
	.p2align 3
asm_cap:                     /* pc, sp, bp, return address */
	.zero 32
	.size asm_cap, 32

/* The capture point is the macro's first instruction, so a CFI row that
 * starts right before the macro starts exactly there. The return address
 * sits at \ra_off(%rsp). */
.macro CAPTURE ra_off
9:
	mov %rsp, asm_cap+8(%rip)
	mov %rbp, asm_cap+16(%rip)
	mov \ra_off(%rsp), %rax
	mov %rax, asm_cap+24(%rip)
	lea 9b(%rip), %rax
	mov %rax, asm_cap(%rip)
	call probe_capture
.endm

	.text

/* With rdi == 0, an out-of-line path after an early-return epilogue (the
 * layout of gcc's shrink-wrapping), captured at its first instruction: the
 * row there is the one DW_CFA_restore_state brings back, CFA offset
 * included (32, not the epilogue's 8), and it starts exactly at the
 * capture point. */
	.globl asm_remember_restore
	.type asm_remember_restore, @function
asm_remember_restore:
	.cfi_startproc
	push %rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	push %rbp
	.cfi_def_cfa_offset 24
	.cfi_offset %rbp, -24
	push %r12
	.cfi_def_cfa_offset 32
	.cfi_offset %r12, -32
	mov $0x1111, %rbp        /* not a frame address */
	test %rdi, %rdi
	jz 1f
	.cfi_remember_state
	pop %r12
	.cfi_def_cfa_offset 24
	.cfi_restore %r12
	pop %rbp
	.cfi_def_cfa_offset 16
	.cfi_restore %rbp
	pop %rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
1:
	.cfi_restore_state
	CAPTURE 24
	pop %r12
	.cfi_def_cfa_offset 24
	.cfi_restore %r12
	pop %rbp
	.cfi_def_cfa_offset 16
	.cfi_restore %rbp
	pop %rbx
	.cfi_def_cfa_offset 8
	.cfi_restore %rbx
	ret
	.cfi_endproc
	.size asm_remember_restore, .-asm_remember_restore

/* A call as a function's last instruction (as before a noreturn callee):
 * its return address is the first byte of the next function, whose row
 * (CFA = rsp + 8) is wrong for the caller (CFA = rsp + 16). The stepper
 * must look the caller's row up at the return address - 1. The capture
 * is in the callee, asm_capture_in_callee; asm_call_at_end's return
 * address is then 24 bytes above the captured rsp. */
	.globl asm_call_at_end
	.type asm_call_at_end, @function
asm_call_at_end:
	.cfi_startproc
	push %rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	call asm_capture_in_callee
	.cfi_endproc
	.size asm_call_at_end, .-asm_call_at_end

	.globl asm_after_call_at_end
	.type asm_after_call_at_end, @function
asm_after_call_at_end:
	.cfi_startproc
	/* Reached only by asm_capture_in_callee's return: finish
	 * asm_call_at_end's epilogue. Its CFI describes a function entry. */
	pop %rbx
	ret
	.cfi_endproc
	.size asm_after_call_at_end, .-asm_after_call_at_end

	.type asm_capture_in_callee, @function
asm_capture_in_callee:
	.cfi_startproc
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	CAPTURE 24
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size asm_capture_in_callee, .-asm_capture_in_callee

/* An rbp-based CFA, a capture point 70000 bytes into the function (the
 * assembler encodes the advance with DW_CFA_advance_loc4), then
 * DW_CFA_GNU_args_size and a same_value rule. CFA = rbp + 16. */
	.globl asm_far
	.type asm_far, @function
asm_far:
	.cfi_startproc
	push %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	.skip 70000, 0x90
	sub $32, %rsp
	.cfi_escape 0x2e, 0x20   /* DW_CFA_GNU_args_size 32 */
	.cfi_same_value %rbx
	CAPTURE 40
	leave
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size asm_far, .-asm_far

/* The return address copied into rbp, and the CFI saying so
 * (DW_CFA_register); the caller's rbp is saved at CFA - 16. CFA = rsp + 16. */
	.globl asm_ra_in_rbp
	.type asm_ra_in_rbp, @function
asm_ra_in_rbp:
	.cfi_startproc
	push %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov 8(%rsp), %rbp
	.cfi_register %rip, %rbp
	CAPTURE 8
	pop %rbp
	.cfi_def_cfa_offset 8
	.cfi_restore %rbp
	.cfi_restore %rip
	ret
	.cfi_endproc
	.size asm_ra_in_rbp, .-asm_ra_in_rbp

/* The functions below keep the stack 16-byte aligned for the call in
 * CAPTURE with one 8-byte slot: CFA = rsp + 16 at their capture points. */

/* rbp described by DW_CFA_val_offset: the caller's rbp *is* CFA + 0 (a
 * synthetic rule; the test checks only this step). */
	.globl asm_val_offset
	.type asm_val_offset, @function
asm_val_offset:
	.cfi_startproc
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	.cfi_val_offset %rbp, 0
	CAPTURE 8
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size asm_val_offset, .-asm_val_offset

/* A CFA given as a DWARF expression (DW_OP_breg7 16, i.e. rsp + 16): the
 * stepper does not evaluate expressions and must fail, not guess. */
	.globl asm_cfa_expression
	.type asm_cfa_expression, @function
asm_cfa_expression:
	.cfi_startproc
	sub $8, %rsp
	.cfi_escape 0x0f, 0x02, 0x77, 0x10
	CAPTURE 8
	add $8, %rsp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size asm_cfa_expression, .-asm_cfa_expression

/* An undefined return address: the outermost frame. */
	.globl asm_outermost
	.type asm_outermost, @function
asm_outermost:
	.cfi_startproc
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	.cfi_undefined %rip
	CAPTURE 8
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size asm_outermost, .-asm_outermost

/* A signal trampoline's FDE ('S' augmentation) whose ucontext, at sp, is
 * all zeros: its saved sp (0) is not above the frame, so the step is
 * refused. The zeros make that so whatever the frames above hold (under
 * AddressSanitizer they differ, and the words read once gave a valid-
 * looking sp). */
	.globl asm_signal_frame
	.type asm_signal_frame, @function
asm_signal_frame:
	.cfi_startproc
	.cfi_signal_frame
	sub $264, %rsp
	.cfi_adjust_cfa_offset 264
	mov %rsp, %rdi
	mov $32, %ecx
	xor %eax, %eax
	rep stosq                /* 256 bytes: past the gregs the step reads */
	CAPTURE 264
	add $264, %rsp
	.cfi_adjust_cfa_offset -264
	ret
	.cfi_endproc
	.size asm_signal_frame, .-asm_signal_frame

	.section .note.GNU-stack,"",@progbits
#endif
