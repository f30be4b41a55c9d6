// ModuleRecord.h: what one module contributes to the runtime (design.md,
// Contract 2): its progress counters, the inline sharded increment that
// bumps them, the point descriptors, the list of source files it
// instrumented, and the constructor that registers all of it.
#ifndef COZ_PASS_MODULE_RECORD_H
#define COZ_PASS_MODULE_RECORD_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "abi.h"

namespace llvm {
class DebugLoc;
class Function;
class GlobalVariable;
class Module;
} // namespace llvm

namespace coz {

// The counters' layout (abi.h): COZ_SHARDS shards of one cache line each.
constexpr unsigned ShardCount = COZ_SHARDS;
constexpr unsigned ShardBytes = sizeof(coz_counter) / COZ_SHARDS;
static_assert(ShardBytes == 64 && (ShardCount & (ShardCount - 1)) == 0,
              "a shard is one cache line; shards are picked with a mask");

// Point descriptor flags (abi.h): inserted from --coz-progress/begin/end;
// a candidate progress point (Candidates.h), which the runtime records only
// when the program has no real point.
constexpr unsigned FlagFromCommandLine = COZ_POINT_FROM_COMMAND_LINE;
constexpr unsigned FlagCandidate = COZ_POINT_CANDIDATE;

class ModuleRecord {
public:
  explicit ModuleRecord(llvm::Module &M);

  // The counter of (Kind, Name), created on first use. Loc is one site of
  // the point (for the descriptor's `site`); it may be empty. A candidate
  // (FlagCandidate) never shares its counter with a real point: its name
  // space and its symbols are its own.
  llvm::GlobalVariable *counter(unsigned Kind, llvm::StringRef Name,
                                unsigned Flags, const llvm::DebugLoc &Loc);

  // Emits, at B's insertion point, `atomicrmw add` of 1 (monotonic) on the
  // shard of Counter picked by the current CPU. Created instructions are
  // appended to Created when given.
  void
  emitIncrement(llvm::IRBuilder<> &B, llvm::GlobalVariable *Counter,
                llvm::SmallVectorImpl<llvm::Instruction *> *Created = nullptr);

  // Records a function the pass processed: its source file (the runtime's
  // default scope) and whether it keeps a frame pointer (abi.h's module
  // flags).
  void addFunction(const llvm::Function &F);

  // Emits the descriptors and the registering constructor when the module
  // has points or files. Returns whether it emitted anything.
  bool finish();

private:
  struct Point {
    llvm::GlobalVariable *Counter = nullptr;
    unsigned Flags = 0;
    std::string Site;
  };
  llvm::Constant *cString(llvm::StringRef S, const llvm::Twine &Name);

  llvm::Module &M;
  bool ShardByCpu;
  // Keyed by (kind, is candidate, name).
  std::map<std::tuple<unsigned, bool, std::string>, Point> Points;
  std::set<std::string> Files;
  unsigned ModuleFlags = 0;
};

} // namespace coz

#endif
