// PathMatch.h: source paths from debug info, and the suffix match that
// --coz-progress=FILE:LINE uses to find FILE.
#ifndef COZ_PASS_PATH_MATCH_H
#define COZ_PASS_PATH_MATCH_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class DIFile;
}

namespace coz {

// DIFile directory + filename, with "." and ".." components removed; the
// filename alone when it is already absolute.
std::string absolutePath(const llvm::DIFile *File);

// True when Want names Path by whole trailing components: "a.c", "src/a.c"
// and "/x/src/a.c" match "/x/src/a.c"; "c.c" and "rc/a.c" do not.
bool pathSuffixMatches(llvm::StringRef Path, llvm::StringRef Want);

} // namespace coz

#endif
