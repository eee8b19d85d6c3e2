// bench/triton/ElfSymbols finds hidden functions of a loaded shared object by mangled name.
#include "triton/ElfSymbols.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

using linlayout::bench::triton::ElfSymbols;

namespace {

const char *kFixture = LINLAYOUT_ELF_FIXTURE;

TEST(ElfSymbols, FindsAHiddenFunctionOfALoadedObject) {
  void *h = dlopen(kFixture, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr) << dlerror();
  ASSERT_EQ(dlsym(h, "_ZN7fixture12hiddenAnswerEi"), nullptr) << "the fixture exports it";
  std::string error;
  auto syms = ElfSymbols::load(kFixture, error);
  ASSERT_TRUE(syms) << error;
  uintptr_t hidden = syms->address("_ZN7fixture12hiddenAnswerEi");
  ASSERT_NE(hidden, 0u);
  EXPECT_EQ(reinterpret_cast<int (*)(int)>(hidden)(7), 43);
  EXPECT_TRUE(syms->codeMatchesFile("_ZN7fixture12hiddenAnswerEi", 8));
  EXPECT_EQ(syms->address("_ZN7fixture7missingEv"), 0u);
  ASSERT_EQ(syms->namesStartingWith("_ZN7fixture", 4).size(), 1u);
  dlclose(h);
}

TEST(ElfSymbols, SaysWhenTheObjectIsNotLoaded) {
  std::string error;
  EXPECT_FALSE(ElfSymbols::load("/nonexistent/libtriton.so", error));
  EXPECT_NE(error.find("no loaded object"), std::string::npos) << error;
}

} // namespace
