/* cp_symbols.h: turning sampled PCs into (object, offset, function) at exit
 * (never in a signal handler). Objects come from dl_iterate_phdr; function
 * names from each object's ELF symbol table (.symtab, else .dynsym) read
 * with libelf. */
#ifndef COZ_CP_SYMBOLS_H
#define COZ_CP_SYMBOLS_H

#include <stdint.h>
#include <stdio.h>

struct cp_symbols;

struct cp_symbols *cp_symbols_load(void);
/* Writes one `object` line per loaded object to f. */
void cp_symbols_write_objects(struct cp_symbols *s, FILE *f, long pid);
/* Writes the frame `function@object-id+0xoffset` for pc to f. */
void cp_symbols_write_frame(struct cp_symbols *s, FILE *f, uintptr_t pc);
void cp_symbols_free(struct cp_symbols *s);

#endif /* COZ_CP_SYMBOLS_H */
