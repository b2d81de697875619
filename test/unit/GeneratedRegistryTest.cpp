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
#include <stencil/halo.hpp>
#include <stencil/index.hpp>
#include <string>

namespace reg {
struct Smooth {
  void operator()(const stencil::Index2D &, const float *, float *) const {}
};
struct Twice {
  void operator()(const stencil::Index2D &, const float *, float *) const {}
};
struct Stale {
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
  return {
      Name,  Source,          TypeKey,   FunctionKey, stencil::Backend::OpenMP,
      2,     &typeid(void()), &noLaunch, Variant,     {},
      false, IrHash,          0,         0,           nullptr,
      -1};
}

/// Registers \p E as code generated for this runtime's ABI.
void add(const stencil::GeneratedStencil &E) {
  stencil::registerGenerated(stencil::GeneratedAbiVersion, E);
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
  add(entry("reg::Smooth", Key, nullptr, "grid", "a.cpp:3",
            "00000000000000aa"));
  add(entry("reg::Smooth", Key, nullptr, "grid", "b.cpp:7",
            "00000000000000bb"));
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
  add(entry("reg::Twice", Key, nullptr, "grid", "t.cpp:1", "0000000000000011"));
  add(entry("reg::Twice", Key, nullptr, "zmarch", "t.cpp:1",
            "0000000000000011"));
  const stencil::GeneratedStencil *E =
      stencil::findGenerated(Backend::OpenMP, typeid(reg::Twice));
  ASSERT_TRUE(E);
  EXPECT_STREQ(E->variant, "grid");
  EXPECT_EQ(stencil::generatedVariants(*E).size(), 2u);
  // The same stencil from a header two files include: no error, and each
  // variant once (registering moves the entries: look the stencil up again).
  add(entry("reg::Twice", Key, nullptr, "grid", "t.cpp:1", "0000000000000011"));
  E = stencil::findGenerated(Backend::OpenMP, typeid(reg::Twice));
  ASSERT_TRUE(E);
  EXPECT_STREQ(E->variant, "grid");
  EXPECT_EQ(stencil::generatedVariants(*E).size(), 2u);
}

TEST(GeneratedRegistry, FunctionsWithDifferentIrAreAnError) {
  const void *Key = reinterpret_cast<const void *>(&reg::sharpen);
  add(entry("reg::sharpen", nullptr, Key, "grid", "c.cpp:1",
            "0000000000000001"));
  add(entry("reg::sharpen", nullptr, Key, "grid", "d.cpp:2",
            "0000000000000002"));
  std::string Error =
      errorOf([] { stencil::generatedFor(Backend::OpenMP, &reg::sharpen); });
  EXPECT_NE(Error.find("c.cpp:1"), std::string::npos) << Error;
  EXPECT_NE(Error.find("d.cpp:2"), std::string::npos) << Error;
}

TEST(GeneratedRegistry, FunctionPointersFindTheirFunction) {
  add(entry("reg::blur", nullptr, reinterpret_cast<const void *>(&reg::blur),
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

TEST(GeneratedRegistry, OtherAbiVersionIsAnErrorAtRegistration) {
  const char *Key = typeid(reg::Stale).name();
  for (int Version :
       {stencil::GeneratedAbiVersion - 1, stencil::GeneratedAbiVersion + 1}) {
    const std::string Error = errorOf([&] {
      stencil::registerGenerated(Version,
                                 entry("reg::Stale", Key, nullptr, "grid",
                                       "stale.cpp:4", "0000000000000004"));
    });
    EXPECT_NE(
        Error.find(
            "stencil reg::Stale (stale.cpp:4) was generated for runtime ABI "
            "version " +
            std::to_string(Version) + ", but this runtime has version " +
            std::to_string(stencil::GeneratedAbiVersion)),
        std::string::npos)
        << Error;
    EXPECT_NE(Error.find("regenerate it with this stencilc"), std::string::npos)
        << Error;
  }
  // Rejected entries are not registered: nothing can launch them.
  EXPECT_EQ(stencil::findGenerated(Backend::OpenMP, typeid(reg::Stale)),
            nullptr);
}

TEST(GeneratedRegistry, HaloHasCornersOnlyWhereAStencilReadsThem) {
  stencil::GeneratedStencil Star = entry("reg::Star", "star", nullptr, "grid",
                                         "s.cpp:1", "0000000000000006");
  Star.halo[0][0] = 2;
  Star.halo[1][1] = 1;
  stencil::GeneratedStencil Box = Star;
  Box.readsDiagonal = true;
  const stencil::Halo S = stencil::Halo::of(Star), B = stencil::Halo::of(Box);
  EXPECT_FALSE(S.corners);
  EXPECT_TRUE(B.corners);
  EXPECT_EQ(S.str(2), "x:2/0 y:0/1");
  // A merge exchanges corners if either reads them.
  EXPECT_TRUE(stencil::Halo(S).merge(B).corners);
  EXPECT_FALSE(stencil::Halo(S).merge(S).corners);
  // A halo without corners does not cover a stencil that reads them.
  EXPECT_TRUE(B.covers(S));
  EXPECT_FALSE(S.covers(B));
  stencil::Halo Forced = S;
  Forced.corners = true; // the user's choice: exchange them anyway
  EXPECT_TRUE(Forced.covers(B));
  // Written by hand, a halo exchanges corners unless told otherwise.
  EXPECT_TRUE(stencil::Halo().corners);
}
