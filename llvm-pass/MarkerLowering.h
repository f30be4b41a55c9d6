// MarkerLowering.h: coz.h's `if (__coz_marker) __coz_marker(kind, name)`
// becomes an inline sharded counter increment (design.md, Contract 2).
#ifndef COZ_PASS_MARKER_LOWERING_H
#define COZ_PASS_MARKER_LOWERING_H

namespace llvm {
class Function;
}

namespace coz {

class ModuleRecord;

// Lowers the marker calls of F whose kind and name are constants; returns
// how many. Calls with a computed name stay calls to the runtime.
unsigned lowerMarkers(llvm::Function &F, ModuleRecord &Record);

} // namespace coz

#endif
