// PathMatch.cpp: see PathMatch.h.
#include "PathMatch.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace coz {

std::string absolutePath(const DIFile *File) {
  if (!File)
    return std::string();
  SmallString<256> P;
  if (!sys::path::is_absolute(File->getFilename()))
    P = File->getDirectory();
  sys::path::append(P, File->getFilename());
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P.str());
}

namespace {
SmallVector<StringRef, 16> components(StringRef P) {
  SmallVector<StringRef, 16> Out;
  SmallVector<StringRef, 16> Parts;
  P.split(Parts, '/', -1, /*KeepEmpty=*/false);
  for (StringRef C : Parts)
    if (C != ".")
      Out.push_back(C);
  return Out;
}
} // namespace

bool pathSuffixMatches(StringRef Path, StringRef Want) {
  if (Want.empty())
    return false;
  SmallVector<StringRef, 16> P = components(Path), W = components(Want);
  if (W.empty() || W.size() > P.size())
    return false;
  // An absolute FILE must name the whole path.
  if (Want.front() == '/' && W.size() != P.size())
    return false;
  for (size_t I = 0; I < W.size(); ++I)
    if (P[P.size() - W.size() + I] != W[I])
      return false;
  return true;
}

} // namespace coz
