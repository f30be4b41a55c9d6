// FunctionFilter.cpp: see FunctionFilter.h.
#include "FunctionFilter.h"

#include "Compat.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Module.h"

#include <cstdlib>
#include <cxxabi.h>

using namespace llvm;

namespace coz {

namespace {

constexpr const char *SkipAnnotation = "coz_skip";

// The demangler coz-report uses (libstdc++'s,
// report/callpath/cpr_names.c), so a name copied from a report matches:
// LLVM's own prints lambdas and other unnamed entities differently
// ('lambda'(int) for {lambda(int)#1}). Only Itanium names: it would also
// "demangle" a C name that spells a type.
std::string demangled(const std::string &Mangled) {
  if (Mangled.compare(0, 2, "_Z") != 0)
    return Mangled;
  int Status = 0;
  char *Out = abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status);
  std::string D = Status == 0 && Out ? Out : Mangled;
  std::free(Out);
  return D;
}

// "ns::f(int) const" -> "ns::f": drops the last balanced (...) group and
// what follows it.
std::string withoutParameters(const std::string &D) {
  size_t Close = D.rfind(')');
  if (Close == std::string::npos)
    return D;
  int Depth = 0;
  for (size_t I = Close + 1; I-- > 0;) {
    if (D[I] == ')')
      ++Depth;
    else if (D[I] == '(' && --Depth == 0)
      return D.substr(0, I);
  }
  return D;
}

} // namespace

FunctionFilter::FunctionFilter(Module &M, const std::vector<std::string> &Skip)
    : Skip(Skip) {
  // @llvm.global.annotations = [ { fn, "annotation", file, line, args } ... ]
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return;
  for (Value *Op : Arr->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    StringRef Text;
    if (F && getConstantStringInfo(Entry->getOperand(1), Text) &&
        Text == SkipAnnotation)
      Annotated.insert(F);
  }
}

bool FunctionFilter::shouldInstrument(const Function &F) const {
  // Naked functions are inline assembly only: code added there would run
  // without a frame.
  if (F.isDeclaration() || cozStartsWith(F.getName(), "__coz_") ||
      F.hasFnAttribute(Attribute::Naked) || Annotated.count(&F))
    return false;
  if (Skip.empty())
    return true;
  std::string Mangled = F.getName().str();
  std::string Demangled = demangled(Mangled);
  std::string Short = withoutParameters(Demangled);
  for (const std::string &S : Skip)
    if (S == Mangled || S == Demangled || S == Short)
      return false;
  return true;
}

} // namespace coz
