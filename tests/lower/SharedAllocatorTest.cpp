// The liveness-based shared-memory allocator.
#include "SharedAllocator.h"
#include "Property.h"

#include <gtest/gtest.h>

using namespace linlayout::lower;
using namespace linlayout::lower::testing;

TEST(SharedAllocator, LiveTogetherMeansDisjointAndTheTotalIsBounded) {
  checkProperty([](void) {
    int n = *rc::gen::inRange(0, 12);
    std::vector<SharedBuffer> bufs;
    int64_t sum = 0;
    for (int i = 0; i < n; ++i) {
      int64_t first = *rc::gen::inRange(0, 20);
      int64_t len = *rc::gen::inRange(0, 10);
      int64_t bytes = *rc::gen::inRange(1, 5000);
      bufs.push_back({bytes, first, first + len});
      sum += (bytes + 127) / 128 * 128;
    }
    SharedAllocation a = allocateShared(bufs);
    RC_ASSERT(a.offsets.size() == bufs.size());
    RC_ASSERT(a.totalBytes <= sum);
    for (int i = 0; i < n; ++i) {
      RC_ASSERT(a.offsets[i] % 128 == 0);
      RC_ASSERT(a.offsets[i] + bufs[i].bytes <= a.totalBytes);
      for (int j = i + 1; j < n; ++j) {
        bool live = bufs[i].first <= bufs[j].last && bufs[j].first <= bufs[i].last;
        bool overlap = a.offsets[i] < a.offsets[j] + bufs[j].bytes &&
                       a.offsets[j] < a.offsets[i] + bufs[i].bytes;
        RC_ASSERT(!(live && overlap));
      }
    }
  });
}

TEST(SharedAllocator, BuffersLiveAtDifferentTimesShare) {
  SharedAllocation a = allocateShared({{4096, 0, 1}, {4096, 2, 3}, {1024, 1, 2}});
  EXPECT_EQ(a.offsets[0], 0);
  EXPECT_EQ(a.offsets[1], 0);
  EXPECT_EQ(a.offsets[2], 4096);
  EXPECT_EQ(a.totalBytes, 5120);
}
