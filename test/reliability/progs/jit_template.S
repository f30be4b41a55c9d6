/* jit_template.S: position-independent machine code that jit.cpp copies
 * into memory of its own at run time, as a JIT emits code: uint64_t
 * f(uint64_t x, uint64_t n) runs n LCG steps from x. No CFI of its own: a
 * JIT describes its code with __register_frame. */
        .text
        .globl  jit_template, jit_template_end
jit_template:
        movq    %rdi, %rax
        movabsq $6364136223846793005, %rcx
1:      imulq   %rcx, %rax
        addq    $1442695, %rax
        decq    %rsi
        jnz     1b
        ret
jit_template_end:
        .section .note.GNU-stack,"",@progbits
