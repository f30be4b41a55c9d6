// ModuleRecord.cpp: counters, the sharded increment, descriptors and the
// registering constructor (design.md, Contract 2).
#include "ModuleRecord.h"

#include "Compat.h"
#include "PathMatch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace coz {

namespace {
// The x86-64 address space whose pointers are %fs-relative.
constexpr unsigned FsAddressSpace = 257;
// __coz_ctr.<kind>.<name> (__coz_cand.<kind>.<name> for a candidate), with
// the bytes of the name outside [A-Za-z0-9_.] written as $XX: any assembler
// takes it (names are arbitrary strings), and the same name gives the same
// symbol in every module.
std::string counterSymbol(unsigned Kind, StringRef Name, bool Candidate) {
  static const char Hex[] = "0123456789abcdef";
  std::string Sym = std::string(Candidate ? "__coz_cand." : "__coz_ctr.") +
                    std::to_string(Kind) + ".";
  for (unsigned char C : Name) {
    if (isAlnum(C) || C == '_' || C == '.') {
      Sym += static_cast<char>(C);
    } else {
      Sym += '$';
      Sym += Hex[C >> 4];
      Sym += Hex[C & 15];
    }
  }
  return Sym;
}

} // namespace

ModuleRecord::ModuleRecord(Module &M) : M(M) {
  Triple T(M.getTargetTriple());
  // The inline CPU read needs glibc's rseq area at %fs:__rseq_offset.
  ShardByCpu = T.getArch() == Triple::x86_64 && T.isOSLinux();
}

Constant *ModuleRecord::cString(StringRef S, const Twine &Name) {
  LLVMContext &C = M.getContext();
  Constant *Init = ConstantDataArray::getString(C, S, /*AddNull=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, Name);
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  return ConstantExpr::getPointerCast(GV, cozBytePtrTy(C));
}

GlobalVariable *ModuleRecord::counter(unsigned Kind, StringRef Name,
                                      unsigned Flags, const DebugLoc &Loc) {
  bool Candidate = Flags & FlagCandidate;
  Point &P = Points[{Kind, Candidate, Name.str()}];
  P.Flags |= Flags;
  if (P.Site.empty() && Loc) {
    if (auto *Scope = dyn_cast<DIScope>(Loc.getScope()))
      P.Site =
          absolutePath(Scope->getFile()) + ":" + std::to_string(Loc.getLine());
  }
  if (P.Counter)
    return P.Counter;

  // linkonce_odr in a comdat: every module of one link unit that counts
  // (Kind, Name) ends up sharing one counter. Hidden: the increment needs no
  // GOT load, and each DSO keeps its own (the runtime merges by name).
  std::string Sym = counterSymbol(Kind, Name, Candidate);
  LLVMContext &C = M.getContext();
  auto *Ty = ArrayType::get(Type::getInt64Ty(C), ShardCount * ShardBytes / 8);
  GlobalVariable *GV = M.getGlobalVariable(Sym, /*AllowInternal=*/true);
  if (!GV || GV->isDeclaration()) {
    auto *Def = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                   GlobalValue::LinkOnceODRLinkage,
                                   ConstantAggregateZero::get(Ty), Sym);
    if (GV) {
      // The program declared the counter itself (to read it, say): that
      // declaration now names our definition.
      GV->replaceAllUsesWith(ConstantExpr::getPointerCast(Def, GV->getType()));
      Def->takeName(GV);
      GV->eraseFromParent();
    }
    GV = Def;
    GV->setAlignment(Align(ShardBytes));
    GV->setVisibility(GlobalValue::HiddenVisibility);
    GV->setDSOLocal(true);
    if (Triple(M.getTargetTriple()).supportsCOMDAT())
      GV->setComdat(M.getOrInsertComdat(Sym));
  }
  P.Counter = GV;
  return GV;
}

void ModuleRecord::emitIncrement(IRBuilder<> &B, GlobalVariable *Counter,
                                 SmallVectorImpl<Instruction *> *Created) {
  LLVMContext &C = M.getContext();
  // Remember where the sequence starts to report what was created.
  BasicBlock *BB = B.GetInsertBlock();
  BasicBlock::iterator End = B.GetInsertPoint();
  bool AtStart = End == BB->begin();
  Instruction *Before = AtStart ? nullptr : &*std::prev(End);
  Type *I8 = Type::getInt8Ty(C), *I32 = Type::getInt32Ty(C),
       *I64 = Type::getInt64Ty(C);
  Value *Shard = B.CreatePointerCast(Counter, cozBytePtrTy(C));
  if (ShardByCpu) {
    // shard = cpu_id_start (offset 0 of glibc's struct rseq at
    // %fs:__rseq_offset) & 15. __rseq_offset is a weak reference: without
    // it (old glibc, another libc) everything goes to shard 0. The select
    // keeps the path branch-free: when the symbol is missing we read %fs:0
    // (always mapped: the TCB points to itself) and discard the value.
    auto *RseqOffset =
        cast<GlobalVariable>(M.getOrInsertGlobal("__rseq_offset", I64));
    RseqOffset->setLinkage(GlobalValue::ExternalWeakLinkage);
    GlobalVariable *Zero = M.getGlobalVariable("__coz_zero_offset", true);
    if (!Zero) {
      Zero = new GlobalVariable(M, I64, /*isConstant=*/true,
                                GlobalValue::PrivateLinkage,
                                ConstantInt::get(I64, 0), "__coz_zero_offset");
      Zero->setAlignment(Align(8));
    }
    Value *Missing = B.CreateICmpEQ(
        RseqOffset, ConstantPointerNull::get(RseqOffset->getType()));
    Value *OffsetPtr = B.CreateSelect(Missing, Zero, RseqOffset);
    LoadInst *Offset = B.CreateLoad(I64, OffsetPtr);
    Offset->setAlignment(Align(8));
    // glibc sets __rseq_offset once, before any user code runs.
    Offset->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(C, {}));
    Value *CpuPtr =
        B.CreateIntToPtr(Offset, cozPtrTy(I32, FsAddressSpace), "coz.cpu.ptr");
    // Volatile: the kernel rewrites it when the thread migrates.
    LoadInst *Cpu = B.CreateLoad(I32, CpuPtr, /*isVolatile=*/true);
    Cpu->setAlignment(Align(4));
    Value *Index = B.CreateAnd(Cpu, ShardCount - 1);
    Index = B.CreateSelect(Missing, ConstantInt::get(I32, 0), Index);
    Value *ByteOffset = B.CreateShl(B.CreateZExt(Index, I64), 6);
    Shard = B.CreateInBoundsGEP(I8, Shard, ByteOffset, "coz.shard");
  }
  Value *Word = B.CreatePointerCast(Shard, cozPtrTy(I64));
  B.CreateAtomicRMW(AtomicRMWInst::Add, Word, ConstantInt::get(I64, 1),
                    MaybeAlign(8), AtomicOrdering::Monotonic);
  if (Created)
    for (auto It = AtStart ? BB->begin() : std::next(Before->getIterator());
         It != B.GetInsertPoint(); ++It)
      Created->push_back(&*It);
}

void ModuleRecord::addFunction(const Function &F) {
  if (const DISubprogram *SP = F.getSubprogram()) {
    std::string P = absolutePath(SP->getFile());
    if (!P.empty())
      Files.insert(P);
  }
  // "non-leaf" is enough for the kernel's walk: a leaf calls no system call.
  StringRef FP = F.getFnAttribute("frame-pointer").getValueAsString();
  if (FP != "all" && FP != "non-leaf")
    ModuleFlags |= COZ_MODULE_OMITS_FRAME_POINTERS;
}

bool ModuleRecord::finish() {
  if (Points.empty() && Files.empty())
    return false;
  LLVMContext &C = M.getContext();
  Type *I32 = Type::getInt32Ty(C);
  PointerType *BytePtr = cozBytePtrTy(C);
  auto U32 = [&](uint64_t V) { return ConstantInt::get(I32, V); };

  // struct coz_point_desc { const char *name; uint32_t kind, flags;
  //                         struct coz_counter *counter; const char *site; }
  StructType *PointTy =
      StructType::get(C, {BytePtr, I32, I32, BytePtr, BytePtr});
  std::vector<Constant *> PointInits;
  for (const auto &E : Points) {
    const Point &P = E.second;
    Constant *Site = P.Site.empty() ? ConstantPointerNull::get(BytePtr)
                                    : cString(P.Site, "__coz_site");
    PointInits.push_back(ConstantStruct::get(
        PointTy, {cString(std::get<2>(E.first), "__coz_name"),
                  U32(std::get<0>(E.first)), U32(P.Flags),
                  ConstantExpr::getPointerCast(P.Counter, BytePtr), Site}));
  }
  auto *PointsTy = ArrayType::get(PointTy, PointInits.size());
  auto *PointsGV = new GlobalVariable(
      M, PointsTy, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(PointsTy, PointInits), "__coz_points");

  std::vector<Constant *> FileInits;
  for (const std::string &F : Files)
    FileInits.push_back(cString(F, "__coz_file"));
  auto *FilesTy = ArrayType::get(BytePtr, FileInits.size());
  auto *FilesGV =
      new GlobalVariable(M, FilesTy, true, GlobalValue::PrivateLinkage,
                         ConstantArray::get(FilesTy, FileInits), "__coz_files");

  // struct coz_module_desc { uint32_t abi_version, n_points;
  //   const struct coz_point_desc *points; uint32_t n_files, flags;
  //   const char *const *files; }
  StructType *ModTy =
      StructType::get(C, {I32, I32, BytePtr, I32, I32, BytePtr});
  Constant *ModInit = ConstantStruct::get(
      ModTy,
      {U32(COZ_ABI_VERSION), U32(PointInits.size()),
       ConstantExpr::getPointerCast(PointsGV, BytePtr), U32(FileInits.size()),
       U32(ModuleFlags), ConstantExpr::getPointerCast(FilesGV, BytePtr)});
  auto *ModGV = new GlobalVariable(M, ModTy, true, GlobalValue::PrivateLinkage,
                                   ModInit, "__coz_module_desc");
  ModGV->setAlignment(Align(8));

  // The constructor calls __coz_register_module(&desc) when the runtime is
  // linked in (weak reference), and does nothing otherwise.
  Type *Void = Type::getVoidTy(C);
  FunctionType *RegTy = FunctionType::get(Void, {BytePtr}, false);
  FunctionCallee Reg = M.getOrInsertFunction("__coz_register_module", RegTy);
  if (auto *RegF = dyn_cast<Function>(Reg.getCallee()->stripPointerCasts()))
    if (RegF->isDeclaration())
      RegF->setLinkage(GlobalValue::ExternalWeakLinkage);
  Function *Ctor =
      Function::Create(FunctionType::get(Void, false),
                       GlobalValue::InternalLinkage, "__coz_module_ctor", M);
  cozAddUWTable(*Ctor);
  BasicBlock *Entry = BasicBlock::Create(C, "entry", Ctor);
  BasicBlock *Call = BasicBlock::Create(C, "register", Ctor);
  BasicBlock *Done = BasicBlock::Create(C, "done", Ctor);
  IRBuilder<> B(Entry);
  Value *Callee = Reg.getCallee();
  B.CreateCondBr(B.CreateIsNotNull(Callee), Call, Done);
  B.SetInsertPoint(Call);
  B.CreateCall(Reg, {ConstantExpr::getPointerCast(ModGV, BytePtr)});
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 65535);
  return true;
}

} // namespace coz
