/* uninit_rbp.S: for runtime.valgrind (see uninit_rbp.c).
 * uint64_t spin_saved_rbp(uint64_t n, uint64_t word) runs an LCG for n
 * steps in spin_cfi_frame, called through spin_saved_rbp, which has no
 * CFI. spin_cfi_frame's CFI says it saved rbp where it pushed `word`
 * (rbp itself is never touched), so an unwinder that steps out of it by
 * CFI holds `word` as the caller's rbp, cannot step further (no CFI) and
 * falls back to a frame-pointer walk from that word. */
        .text

        .globl  spin_saved_rbp
        .type   spin_saved_rbp, @function
spin_saved_rbp:
        pushq   %rbx
        call    spin_cfi_frame
        popq    %rbx
        ret
        .size   spin_saved_rbp, .-spin_saved_rbp

        .type   spin_cfi_frame, @function
spin_cfi_frame:
        .cfi_startproc
        pushq   %rsi
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    $1, %rax
        movabsq $6364136223846793005, %rcx
1:      imulq   %rcx, %rax
        addq    $1442695, %rax
        decq    %rdi
        jnz     1b
        addq    $8, %rsp
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   spin_cfi_frame, .-spin_cfi_frame

        .section .note.GNU-stack,"",@progbits
