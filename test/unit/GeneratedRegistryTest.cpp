//===- GeneratedRegistryTest.cpp - How engines find generated code --------===//
///
/// \file
/// The runtime's registry (<stencil/generated.hpp>) and the engines' lookup
/// (<stencil/generated_engine.hpp>), without stencilc: entries are
/// registered by hand. Two entries with one key and different IR are an
/// error naming both sources (GCC gives functors of one name in anonymous
/// namespaces of two files the same typeid name, which is why stencilc
/// rejects them); a function pointer finds its function.
///
//===----------------------------------------------------------------------===//
#include <functional>
#include <gtest/gtest.h>
#include <stdexcept>
#include <stencil/generated_engine.hpp>
#include <stencil/index.hpp>
#include <string>

namespace reg {
struct Smooth {
  void operator()(const stencil::Index2D &, const float *, float *) const {}
};
struct Twice {
  void operator()(const stencil::Index2D &, const float *, float *) const {}
};
struct Hidden {
  void operator()(const stencil::Index2D &, const float *, float *) const {}
};
void blur(const stencil::Index2D &, float, const float *, float *) {}
void sharpen(const stencil::Index2D &, float, const float *, float *) {}
} // namespace reg

namespace {
const char *noLaunch(const stencil::Grid &, const stencil::Region &,
                     const stencil::LaunchConfig &, void *const *) {
  return nullptr;
}

stencil::GeneratedStencil entry(const char *Name, const char *TypeKey,
                                const void *FunctionKey, const char *Variant,
                                const char *Source, const char *IrHash) {
  return {Name,        TypeKey,
          FunctionKey, stencil::Backend::OpenMP,
          2,           &typeid(void()),
          &noLaunch,   Variant,
          Source,      {},
          IrHash,      0,
          0,           nullptr,
          -1};
}

std::string errorOf(const std::function<void()> &F) {
  try {
    F();
  } catch (const std::exception &E) {
    return E.what();
  }
  return "";
}
} // namespace

using stencil::Backend;

TEST(GeneratedRegistry, SameKeyDifferentIrIsAnError) {
  const char *Key = typeid(reg::Smooth).name();
  stencil::registerGenerated(entry("reg::Smooth", Key, nullptr, "grid",
                                   "a.cpp:3", "00000000000000aa"));
  stencil::registerGenerated(entry("reg::Smooth", Key, nullptr, "grid",
                                   "b.cpp:7", "00000000000000bb"));
  std::string Error = errorOf(
      [] { stencil::findGenerated(Backend::OpenMP, typeid(reg::Smooth)); });
  EXPECT_NE(Error.find("two different stencils are registered as reg::Smooth"),
            std::string::npos)
      << Error;
  EXPECT_NE(Error.find("a.cpp:3"), std::string::npos) << Error;
  EXPECT_NE(Error.find("b.cpp:7"), std::string::npos) << Error;
  // The engines' lookup says the same.
  Error =
      errorOf([] { stencil::generatedFor(Backend::OpenMP, reg::Smooth()); });
  EXPECT_NE(Error.find("b.cpp:7"), std::string::npos) << Error;
}

TEST(GeneratedRegistry, VariantsOfOneStencilShareTheKey) {
  const char *Key = typeid(reg::Twice).name();
  stencil::registerGenerated(
      entry("reg::Twice", Key, nullptr, "grid", "t.cpp:1", "0000000000000011"));
  stencil::registerGenerated(entry("reg::Twice", Key, nullptr, "zmarch",
                                   "t.cpp:1", "0000000000000011"));
  const stencil::GeneratedStencil *E =
      stencil::findGenerated(Backend::OpenMP, typeid(reg::Twice));
  ASSERT_TRUE(E);
  EXPECT_STREQ(E->variant, "grid");
  EXPECT_EQ(stencil::generatedVariants(*E).size(), 2u);
  // The same stencil from a header two files include: no error, and each
  // variant once (registering moves the entries: look the stencil up again).
  stencil::registerGenerated(
      entry("reg::Twice", Key, nullptr, "grid", "t.cpp:1", "0000000000000011"));
  E = stencil::findGenerated(Backend::OpenMP, typeid(reg::Twice));
  ASSERT_TRUE(E);
  EXPECT_STREQ(E->variant, "grid");
  EXPECT_EQ(stencil::generatedVariants(*E).size(), 2u);
}

TEST(GeneratedRegistry, FunctionsWithDifferentIrAreAnError) {
  const void *Key = reinterpret_cast<const void *>(&reg::sharpen);
  stencil::registerGenerated(entry("reg::sharpen", nullptr, Key, "grid",
                                   "c.cpp:1", "0000000000000001"));
  stencil::registerGenerated(entry("reg::sharpen", nullptr, Key, "grid",
                                   "d.cpp:2", "0000000000000002"));
  std::string Error =
      errorOf([] { stencil::generatedFor(Backend::OpenMP, &reg::sharpen); });
  EXPECT_NE(Error.find("c.cpp:1"), std::string::npos) << Error;
  EXPECT_NE(Error.find("d.cpp:2"), std::string::npos) << Error;
}

TEST(GeneratedRegistry, FunctionPointersFindTheirFunction) {
  stencil::registerGenerated(entry("reg::blur", nullptr,
                                   reinterpret_cast<const void *>(&reg::blur),
                                   "grid", "e.cpp:5", "0000000000000005"));
  const stencil::GeneratedStencil *ByName =
      stencil::generatedFor(Backend::OpenMP, reg::blur);
  ASSERT_TRUE(ByName);
  EXPECT_STREQ(ByName->source, "e.cpp:5");
  EXPECT_EQ(stencil::generatedFor(Backend::OpenMP, &reg::blur), ByName);
  void (*Pointer)(const stencil::Index2D &, float, const float *, float *) =
      &reg::blur;
  EXPECT_EQ(stencil::generatedFor(Backend::OpenMP, Pointer), ByName);
  Pointer = nullptr;
  EXPECT_NE(errorOf([&] {
              stencil::generatedFor(Backend::OpenMP, Pointer);
            }).find("null"),
            std::string::npos);
}
