/* pass_marker.h: what the pass leaves in every object it compiles, for
 * test objects built without it: a weak reference to the runtime's
 * __coz_register_module (the executable defines and exports it, as the
 * runtime does). The line map's default binary scope reads only objects
 * whose dynamic symbols name it. */
#ifndef COZ_TEST_LINEMAP_PASS_MARKER_H
#define COZ_TEST_LINEMAP_PASS_MARKER_H

void __coz_register_module(const void *desc) __attribute__((weak));
__attribute__((used)) static void (*const coz_test_pass_marker)(const void *) =
    __coz_register_module;

#endif /* COZ_TEST_LINEMAP_PASS_MARKER_H */
