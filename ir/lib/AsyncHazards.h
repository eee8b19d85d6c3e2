// The interpreter's check of the asynchronous shared-memory protocols. The interpreter runs a
// program's ops one after another and lets every copy land at once, so a kernel that reads a tile
// before waiting for its copy computes the right numbers there and races on the GPU. This class
// follows, per element of each allocation, the accesses the hardware may still be making, and
// names the first access that would race with one of them:
//  - a cp.async (ttg.async_copy_global_to_local) writes its tile until an async_wait retires its
//    commit group (async_wait {num = N} retires every committed group but the N newest; a copy
//    not committed yet is in no group, and no wait retires it);
//  - a TMA copy writes its tile until a wait_barrier sees the barrier phase its bytes count in
//    complete;
//  - an asynchronous warp_group_dot reads its shared operands until a warp_group_dot_wait leaves
//    no more than `pendings` newer dots in flight;
//  - a TMA store (async_tma_copy_local_to_global) reads its tile until an async_tma_store_wait
//    of the same issuer (a warp_specialize region: bulk groups are the issuing thread's) leaves
//    no more than `pendings` of its newer stores in flight;
//  - shared memory written through the generic proxy (local_alloc with a value, local_store,
//    cp.async) is not visible to the async proxy (wgmma operands, TMA copies) until a
//    fence_async_shared;
//  - a cp.async marked `ll.slot_free` claims that no thread read its destination since the last
//    CTA barrier (async_wait, gpu.barrier), so the lowering puts no barrier before it: a read
//    since then makes the claim false.
// Reading or writing an element some copy may still be writing, writing one a dot may still be
// reading, an async access of an element with an unfenced generic write, and deallocating memory
// with any of those in flight, are hazards; the fence rule only when asked (kernels as written
// leave the fences to the pass pipeline's fence insertion). The check is at CTA scope: the barriers
// that publish one thread's completed copies to the others are the lowering's business.
#pragma once

#include "linlayout/ir/Op.h"

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace linlayout::ir {

class AsyncHazards {
public:
  /// An mbarrier: its allocation and element.
  using BarrierKey = std::pair<int64_t, int64_t>;

  /// `checkFences`: also report async accesses of unfenced generic writes.
  explicit AsyncHazards(bool checkFences) : checkFences_(checkFences) {}

  /// A new allocation `alloc` of `elements` elements, nothing in flight; `initializedBy` (a
  /// local_alloc with a value) wrote all of them through the generic proxy.
  void allocate(size_t alloc, size_t elements, const Op *initializedBy = nullptr);

  // Each access returns "" or the hazard (a sentence about the other op, for the interpreter to
  // prefix with the accessing op's place). `at`: the elements of allocation `alloc` accessed.

  /// local_load.
  std::string load(const Op &op, size_t alloc, std::span<const size_t> at);
  /// A CTA barrier (async_wait, gpu.barrier): reads before it are over for every thread.
  void ctaBarrier() { ++epoch_; }
  /// local_store: a generic write, complete at once.
  std::string store(const Op &op, size_t alloc, std::span<const size_t> at);
  /// cp.async: a generic write in flight until a wait retires the group it is committed in.
  std::string asyncCopy(const Op &op, size_t alloc, std::span<const size_t> at);
  /// A TMA copy: an async-proxy write in flight until the barrier's phase `phase` is seen.
  std::string tmaCopy(const Op &op, size_t alloc, std::span<const size_t> at, BarrierKey barrier,
                      int64_t phase);
  /// A warp_group_dot `op` starts: its record, for the reads of its shared operands. An
  /// asynchronous dot is in flight until a warp_group_dot_wait retires it.
  uint32_t beginDot(const Op &op, bool async);
  /// A shared operand of the dot `dot` (beginDot's record): an async-proxy read.
  std::string wgmmaRead(uint32_t dot, size_t alloc, std::span<const size_t> at);
  /// A TMA store of `issuer` (the running region's task; 0 outside warp_specialize): an
  /// async-proxy read in flight until a store wait of the same issuer retires it.
  std::string tmaStore(const Op &op, size_t alloc, std::span<const size_t> at, size_t issuer = 0);
  /// local_dealloc.
  std::string dealloc(size_t alloc);

  /// async_commit_group.
  void commitGroup();
  /// async_wait {num}.
  void waitGroups(int64_t num);
  /// A wait_barrier saw phase `phase` of `barrier` (and so every earlier one) complete.
  void phaseSeen(BarrierKey barrier, int64_t phase);
  /// warp_group_dot_wait {pendings}.
  void waitDots(int64_t pendings);
  /// async_tma_store_wait {pendings} of `issuer` (see tmaStore).
  void waitStores(int64_t pendings, size_t issuer = 0);
  /// fence_async_shared.
  void fence();

private:
  // One execution of an access: its op and what of it is still outstanding.
  struct Record {
    const Op *op = nullptr;
    bool inFlight = false; // a copy still landing, a dot still reading
    bool unfenced = false; // a generic write no fence has covered
  };
  // Per element: the record of the copy that may still be writing it, of the newest dot and the
  // newest TMA store that may still be reading it (each retire oldest first), of its unfenced
  // generic write (0: none).
  struct Element {
    uint32_t writer = 0, reader = 0, storeReader = 0, generic = 0;
    uint32_t lastRead = 0;  // the record of its last synchronous read (local_load, wgmma)
    uint32_t readEpoch = 0; // 1 + the CTA barriers before that read (0: never read)
  };
  struct TmaPending {
    uint32_t record;
    BarrierKey barrier;
    int64_t phase;
  };

  uint32_t newRecord(const Op &op, bool inFlight, bool unfenced);
  // Applies `f` to the elements `at` of allocation `alloc` (those it has).
  template <typename F> void mark(size_t alloc, std::span<const size_t> at, F &&f) {
    if (alloc >= allocs_.size())
      return;
    std::vector<Element> &el = allocs_[alloc];
    for (size_t e : at)
      if (e < el.size())
        f(el[e]);
  }
  // The hazards shared by the accesses: `read`/`write` as the access does, `async` for the async
  // proxy.
  std::string check(size_t alloc, std::span<const size_t> at, bool write, bool async) const;
  std::string describe(uint32_t record) const;

  bool checkFences_;
  uint32_t epoch_ = 0;                                   // CTA barriers so far
  std::unordered_map<const Op *, uint32_t> readRecords_; // each local_load's record
  std::vector<Record> records_{Record{}};                // records_[0]: none
  std::vector<std::vector<Element>> allocs_;
  std::vector<uint32_t> openCopies_;             // cp.async not committed yet
  std::deque<std::vector<uint32_t>> copyGroups_; // committed groups not retired, oldest first
  std::vector<TmaPending> tmaCopies_;            // TMA copies in flight
  std::deque<uint32_t> dots_;                    // asynchronous dots in flight, oldest first
  // Per issuer: TMA stores in flight, oldest first.
  std::unordered_map<size_t, std::deque<uint32_t>> stores_;
  std::vector<uint32_t> unfenced_; // generic writes since the last fence
};

} // namespace linlayout::ir
