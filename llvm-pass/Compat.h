// Compat.h: every difference between the LLVM majors the pass supports
// (those Debian 12 ships: 14, its default, 15, 16 and 19) lives here, so the
// other files read as plain LLVM code.
//
//  - LLVM 14 has typed pointers (clang-14 emits them); 15 and 16 have opaque
//    `ptr` by default, 17 on only that. We always build pointer types through
//    cozPtrTy() and cast with CreatePointerCast/getPointerCast, which are
//    no-ops with opaque pointers.
//  - LLVM 14 has icmp constant expressions (`br i1 icmp ne (@f, null)`);
//    LLVM 19 removed them (clang emits an icmp instruction instead).
//  - StringRef::startswith became starts_with (the old one is deprecated).
//  - The uwtable attribute gained a kind in LLVM 15.
//  - Triple.h moved from ADT/ to TargetParser/ in LLVM 17.
#ifndef COZ_PASS_COMPAT_H
#define COZ_PASS_COMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Passes/OptimizationLevel.h"
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

#if LLVM_VERSION_MAJOR < 14 || LLVM_VERSION_MAJOR > 19
#error "libCozPass supports LLVM 14 to 19"
#endif

namespace coz {

// A pointer to Elt in address space AS (Elt is ignored with opaque pointers).
inline llvm::PointerType *cozPtrTy(llvm::Type *Elt, unsigned AS = 0) {
#if LLVM_VERSION_MAJOR >= 17
  return llvm::PointerType::get(Elt->getContext(), AS);
#else
  return llvm::PointerType::get(Elt, AS);
#endif
}

// `i8*` in LLVM 14, `ptr` in 19: the type of C strings and of void pointers.
inline llvm::PointerType *cozBytePtrTy(llvm::LLVMContext &C) {
  return cozPtrTy(llvm::Type::getInt8Ty(C));
}

inline bool cozStartsWith(llvm::StringRef S, llvm::StringRef Prefix) {
#if LLVM_VERSION_MAJOR >= 16
  return S.starts_with(Prefix);
#else
  return S.startswith(Prefix);
#endif
}

// Functions we emit get unwind tables: pthread_exit and cancellation unwind
// through them.
inline void cozAddUWTable(llvm::Function &F) {
#if LLVM_VERSION_MAJOR >= 15
  F.setUWTableKind(llvm::UWTableKind::Default);
#else
  F.addFnAttr(llvm::Attribute::UWTable);
#endif
}

// If V is `icmp eq/ne Ptr, null` (as an instruction, or as a constant
// expression in LLVM < 19), returns Ptr and sets NonNullIsTrue to whether the
// compare is true when Ptr is non-null. Otherwise returns nullptr.
inline llvm::Value *cozMatchNullTest(llvm::Value *V, bool &NonNullIsTrue) {
  using namespace llvm;
  Value *L = nullptr, *R = nullptr;
  CmpInst::Predicate P;
  if (auto *I = dyn_cast<ICmpInst>(V)) {
    L = I->getOperand(0);
    R = I->getOperand(1);
    P = I->getPredicate();
  }
#if LLVM_VERSION_MAJOR < 19
  else if (auto *CE = dyn_cast<ConstantExpr>(V)) {
    if (CE->getOpcode() != Instruction::ICmp)
      return nullptr;
    L = CE->getOperand(0);
    R = CE->getOperand(1);
    P = static_cast<CmpInst::Predicate>(CE->getPredicate());
  }
#endif
  else {
    return nullptr;
  }
  if (P != CmpInst::ICMP_EQ && P != CmpInst::ICMP_NE)
    return nullptr;
  if (isa<ConstantPointerNull>(L))
    std::swap(L, R);
  if (!isa<ConstantPointerNull>(R))
    return nullptr;
  NonNullIsTrue = P == CmpInst::ICMP_NE;
  return L;
}

} // namespace coz

#endif
