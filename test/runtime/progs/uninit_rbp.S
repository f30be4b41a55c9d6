/* uninit_rbp.S: for runtime.valgrind (see uninit_rbp.c).
 * uint64_t spin_saved_rbp(uint64_t n, uint64_t word) has no CFI: it puts
 * `word` in rbp and calls spin_rbp_cfi (test/reliability/progs/bad_rbp.S),
 * whose CFI says where it saved rbp, so an unwinder that steps out of
 * the loop by CFI holds `word` as the caller's rbp, cannot step further
 * (no CFI here) and falls back to a frame-pointer walk from that word. */
        .text

        .globl  spin_saved_rbp
        .type   spin_saved_rbp, @function
spin_saved_rbp:
        pushq   %rbp
        movq    %rsi, %rbp
        call    spin_rbp_cfi
        popq    %rbp
        ret
        .size   spin_saved_rbp, .-spin_saved_rbp

        .section .note.GNU-stack,"",@progbits
