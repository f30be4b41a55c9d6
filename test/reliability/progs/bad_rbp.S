/* bad_rbp.S: hot loops outside the profiled scope that keep a caller-given
 * value in %rbp while they run, as hand-written library code may (rbp is
 * an ordinary callee-saved register). uint64_t spin_rbp_cfi(uint64_t n,
 * uint64_t rbp) has correct CFI; spin_rbp_nocfi has none, so an unwinder
 * can only fall back to the frame-pointer chain, which starts at the
 * given rbp. Both return an LCG value after n steps. */
        .text

        .globl  spin_rbp_cfi
        .type   spin_rbp_cfi, @function
spin_rbp_cfi:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsi, %rbp
        movq    $1, %rax
        movabsq $6364136223846793005, %rcx
1:      imulq   %rcx, %rax
        addq    $1442695, %rax
        decq    %rdi
        jnz     1b
        popq    %rbp
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   spin_rbp_cfi, .-spin_rbp_cfi

/* No .cfi directives: the assembler emits no FDE for this one. */
        .globl  spin_rbp_nocfi
        .type   spin_rbp_nocfi, @function
spin_rbp_nocfi:
        pushq   %rbp
        movq    %rsi, %rbp
        movq    $1, %rax
        movabsq $6364136223846793005, %rcx
2:      imulq   %rcx, %rax
        addq    $1442695, %rax
        decq    %rdi
        jnz     2b
        popq    %rbp
        ret
        .size   spin_rbp_nocfi, .-spin_rbp_nocfi

        .section .note.GNU-stack,"",@progbits
