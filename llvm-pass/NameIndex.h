// NameIndex.h: a row of one of the pass's static tables (the contract's
// rows), looked up by its Name field through a hash map built at the
// first lookup.
#ifndef COZ_PASS_NAME_INDEX_H
#define COZ_PASS_NAME_INDEX_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <type_traits>

namespace coz {

// Table's row named Name, or null. Table is a template argument, so each
// table has its own map.
template <const auto &Table> auto *findByName(llvm::StringRef Name) {
  using Row = std::remove_reference_t<decltype(Table[0])>;
  static const llvm::StringMap<Row *> ByName = [] {
    llvm::StringMap<Row *> Map;
    for (Row &R : Table)
      Map[R.Name] = &R;
    return Map;
  }();
  return ByName.lookup(Name);
}

} // namespace coz

#endif
