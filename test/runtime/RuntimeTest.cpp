// RuntimeTest.cpp - the loops and engines under bad input: margins narrower
// than a stencil's halo, extents that do not fit an int, null arrays; a
// step's hook before each run. The
// host reference must throw before it reads outside an array (this file also
// runs under AddressSanitizer, host engine only); the generated engines
// refuse to launch.
#include "runtime_stencils.hpp"

#include <stencil/dsl.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <string>
#include <thread>
#include <vector>

using namespace stencil;

namespace {

/// Expects \p F to throw an \p E whose text contains every one of \p Parts.
template <typename E, typename Fn>
void expectError(Fn F, std::initializer_list<const char *> Parts) {
  try {
    F();
  } catch (const E &Error) {
    const std::string What = Error.what();
    for (const char *P : Parts)
      EXPECT_NE(What.find(P), std::string::npos)
          << "'" << P << "' not in: " << What;
    return;
  }
  ADD_FAILURE() << "no exception";
}

constexpr int N = 12;

struct Arrays {
  std::vector<float> f, fn;
  Arrays() : f(N * N * N), fn(N * N * N, -1.0f) {
    for (std::size_t I = 0; I < f.size(); ++I)
      f[I] = static_cast<float>(I % 17) * 0.25f;
  }
};

/// Margins per dimension and side, x first.
struct Margins {
  int m[3][2];
};

template <typename Engine> Loop3D<Engine> loopWith(const Margins &M) {
  return Loop3D<Engine>(N, M.m[0][0], M.m[0][1], N, M.m[1][0], M.m[1][1], N,
                        M.m[2][0], M.m[2][1]);
}

// Radius2's halo is x:2/2 y:1/1 z:2/0; each case is one side short.
struct ShortSide {
  Margins margins;
  const char *access; // the host engine's first access outside
  const char *where;  // which coordinate falls outside
  const char *side;   // the generated engines' message
};
const ShortSide ShortSides[] = {
    {{{{1, 2}, {1, 1}, {2, 0}}},
     "idx.ix<-2,0,0>()",
     "x = -1",
     "2 points at the start of x but the margin there is 1"},
    {{{{2, 1}, {1, 1}, {2, 0}}},
     "idx.ix<2,0,0>()",
     "x = 12",
     "2 points at the end of x but the margin there is 1"},
    {{{{2, 2}, {0, 1}, {2, 0}}},
     "idx.ix<0,-1,0>()",
     "y = -1",
     "1 point at the start of y but the margin there is 0"},
    {{{{2, 2}, {1, 0}, {2, 0}}},
     "idx.ix<0,1,0>()",
     "y = 12",
     "1 point at the end of y but the margin there is 0"},
    {{{{2, 2}, {1, 1}, {1, 0}}},
     "idx.ix<0,0,-2>()",
     "z = -1",
     "2 points at the start of z but the margin there is 1"},
};
const Margins Exact = {{{2, 2}, {1, 1}, {2, 0}}};

float expectedAt(const std::vector<float> &F, int I, int J, int K) {
  auto At = [&](int X, int Y, int Z) { return F[(Z * N + Y) * N + X]; };
  return 0.5f * At(I, J, K) + At(I - 2, J, K) + 2.0f * At(I + 2, J, K) +
         3.0f * At(I, J - 1, K) + 4.0f * At(I, J + 1, K) +
         5.0f * At(I, J, K - 2);
}

} // namespace

//===----------------------------------------------------------------------===//
// The host reference engine
//===----------------------------------------------------------------------===//

TEST(HostEngine, MarginNarrowerThanHaloThrowsBeforeReading) {
  for (const ShortSide &S : ShortSides) {
    SCOPED_TRACE(S.side);
    Arrays A;
    auto Loop = loopWith<HostLoopEngine3D>(S.margins);
    expectError<AccessError>(
        [&] { Loop.run(Radius2(), 0.5f, A.f.data(), A.fn.data()); },
        {"stencil 'Radius2'", S.access, S.where, "outside the array",
         "margin is smaller than the stencil's halo"});
  }
}

// A free function has no name at run time: its messages give its address,
// as the generated engines' do, and the address nm lists it at.
void radius2Function(const stencil::Index3D &idx, const float *f, float *fn) {
  fn[idx.ix()] = f[idx.ix<-2, 0, 0>()];
}

/// "(0x1a2b in " with the address nm lists radius2Function at in this
/// program ("" where nm does not list it).
std::string offsetNmLists() {
  // (In the shell popen starts, /proc/self is the shell.)
  const std::string Program = std::filesystem::read_symlink("/proc/self/exe");
  FILE *Nm = popen(("nm '" + Program + "' 2>/dev/null").c_str(), "r");
  if (!Nm)
    return "";
  char Line[4096];
  std::string Found;
  while (std::fgets(Line, sizeof Line, Nm))
    if (std::strstr(Line, "radius2Function")) {
      char Text[48];
      std::snprintf(Text, sizeof Text, "(0x%llx in ",
                    std::strtoull(Line, nullptr, 16));
      Found = Text;
    }
  pclose(Nm);
  return Found;
}
TEST(HostEngine, FreeFunctionStencilNamedByAddress) {
  Arrays A;
  auto Loop = loopWith<HostLoopEngine3D>(ShortSides[0].margins);
  expectError<AccessError>(
      [&] { Loop.run(radius2Function, A.f.data(), A.fn.data()); },
      {"stencil: the free-function stencil at 0x", "idx.ix<-2,0,0>()",
       "outside the array"});
  // With the address nm lists (the program loads elsewhere each run).
  const std::string Listed = offsetNmLists();
  ASSERT_FALSE(Listed.empty()) << "nm lists no radius2Function";
  expectError<AccessError>(
      [&] { Loop.run(radius2Function, A.f.data(), A.fn.data()); },
      {Listed.c_str()});
  const float *NoInput = nullptr;
  expectError<std::invalid_argument>(
      [&] { Loop.run(&radius2Function, NoInput, A.fn.data()); },
      {"the free-function stencil at 0x", "argument 1", "is null"});
}

// One array for a read and a writable parameter: the serial loop would read
// values it wrote at other points, and a generated engine refuses the launch.
void addInto(const stencil::Index3D &idx, const float *a, const float *b,
             float *sum) {
  sum[idx.ix()] = a[idx.ix()] + b[idx.ix<1, 0, 0>()];
}
TEST(HostEngine, OneArrayReadAndWrittenIsRefused) {
  Arrays A;
  auto Loop = loopWith<HostLoopEngine3D>(Exact);
  const std::vector<float> Before = A.f;
  expectError<std::invalid_argument>(
      [&] { Loop.run(Radius2(), 0.5f, A.f.data(), A.f.data()); },
      {"stencil 'Radius2'", "arguments 2 and 3", "one array",
       "argument 3 is writable"});
  expectError<std::invalid_argument>(
      [&] { Loop.run(addInto, A.f.data(), A.fn.data(), A.fn.data()); },
      {"arguments 2 and 3", "one array"});
  EXPECT_EQ(A.f, Before) << "nothing written before the refusal";
  // Two read-only parameters may share an array.
  Loop.run(addInto, A.f.data(), A.f.data(), A.fn.data());
  EXPECT_EQ(A.fn[(2 * N + 1) * N + 2],
            A.f[(2 * N + 1) * N + 2] + A.f[(2 * N + 1) * N + 3]);
}

// A pointer to volatile is an array like any other to the argument checks.
void scaleVolatile(const stencil::Index3D &idx, const volatile float *a,
                   float *b) {
  b[idx.ix()] = 2.0f * a[idx.ix()];
}
TEST(HostEngine, VolatileArraysRun) {
  Arrays A;
  volatile float *In = A.f.data();
  loopWith<HostLoopEngine3D>(Exact).run(scaleVolatile, In, A.fn.data());
  EXPECT_EQ(A.fn[(2 * N + 1) * N + 2], 2.0f * A.f[(2 * N + 1) * N + 2]);
  expectError<std::invalid_argument>(
      [&] {
        loopWith<HostLoopEngine3D>(Exact).run(scaleVolatile, In, A.f.data());
      },
      {"one array"});
}

TEST(HostEngine, ExactMarginsRun) {
  Arrays A;
  loopWith<HostLoopEngine3D>(Exact).run(Radius2(), 0.5f, A.f.data(),
                                        A.fn.data());
  EXPECT_EQ(A.fn[(2 * N + 1) * N + 2], expectedAt(A.f, 2, 1, 2));
  EXPECT_EQ(A.fn[(11 * N + 10) * N + 9], expectedAt(A.f, 9, 10, 11));
  EXPECT_EQ(A.fn[(1 * N + 1) * N + 2], -1.0f) << "outside the loop's range";
}

// The host engine copies scalars through a volatile (the stencil sees run-time
// values, as generated code does), but one the stencil takes by non-const
// reference stays the caller's: what it writes there is kept.
struct CountPositive {
  void operator()(const stencil::Index2D &idx, int &count, float scale,
                  const float *u) const {
    count += scale * u[idx.ix()] > 0.0f;
  }
};
TEST(HostEngine, ScalarsByNonConstReferenceStayTheCallers) {
  std::vector<float> U(36, 1.0f);
  U[7] = -1.0f;
  int Count = 0;
  stencil::Loop2D<stencil::HostLoopEngine2D>(6, 1, 1, 6, 1, 1)
      .run(CountPositive(), Count, 2.0f, U.data());
  EXPECT_EQ(Count, 15);
}

TEST(HostEngine, NullArrayIsRefused) {
  Arrays A;
  const float *NoInput = nullptr;
  float *NoOutput = nullptr;
  auto Loop = loopWith<HostLoopEngine3D>(Exact);
  expectError<std::invalid_argument>(
      [&] { Loop.run(Radius2(), 0.5f, NoInput, A.fn.data()); },
      {"stencil 'Radius2'", "argument 2", "is null"});
  expectError<std::invalid_argument>(
      [&] { Loop.run(Radius2(), 0.5f, A.f.data(), NoOutput); },
      {"argument 3", "is null"});
}

//===----------------------------------------------------------------------===//
// Loop extents and margins
//===----------------------------------------------------------------------===//

TEST(LoopRange, ExtentsAreCheckedInTheTypeTheyArriveIn) {
  using L = Loop3D<HostLoopEngine3D>;
  // 2^32 + 10 would become 10 as an int.
  expectError<std::invalid_argument>(
      [] { L(4294967306LL, 2, 2, N, 1, 1, N, 2, 0); },
      {"loop extent in x is 4294967306", "more than 2147483647"});
  expectError<std::invalid_argument>(
      [] { L(N, 2, 2, std::size_t(4294967306ull), 1, 1, N, 2, 0); },
      {"loop extent in y is 4294967306"});
  expectError<std::invalid_argument>(
      [] { L(N, 2, 2, N, 1, 1, N, 2, -1LL); },
      {"loop margin at the end in z is -1: negative"});
  expectError<std::invalid_argument>(
      [] { L(N, LLONG_MIN, 2, N, 1, 1, N, 2, 0); },
      {"margin at the start in x", "negative"});
  expectError<std::invalid_argument>(
      [] { L(N, 2, 2, N, 1, 1, N, 2, ULLONG_MAX); },
      {"margin at the end in z is 18446744073709551615"});
  // Margins whose sum overflows an int.
  expectError<std::invalid_argument>(
      [] { L(N, INT_MAX, INT_MAX, N, 1, 1, N, 2, 0); },
      {"bad loop range in x", "wider than the extent"});
  expectError<std::invalid_argument>(
      [] { L(N, 2, 2, N, 1, 1, N, 7, 6); },
      {"bad loop range in z", "wider than the extent"});
  expectError<std::invalid_argument>([] { L(0, 0, 0, N, 1, 1, N, 2, 0); },
                                     {"bad loop range in x", "not positive"});
  // Any integer type that holds the value is fine.
  L Ok(static_cast<unsigned short>(N), 2L, 2ULL, static_cast<long long>(N),
       '\1', 1u, N, 2, 0);
  EXPECT_EQ(Ok.ranges()[1].begin, 1);
  EXPECT_EQ(Ok.ranges()[2].end, N);
  L Big(INT_MAX, 0, INT_MAX, 1, 0, 0, 1, 0, 0);
  EXPECT_EQ(Big.ranges()[0].end, 0);
}

//===----------------------------------------------------------------------===//
// A step's hook before each run
//===----------------------------------------------------------------------===//

// Step::BeforeRun gets each call's pointer arguments, in order and nothing
// else, before its stencil runs: what the hook writes, the stencil reads.
TEST(StepHook, BeforeRunGetsEachCallsPointersFirst) {
  Arrays A;
  std::vector<float> U(N * N * N, 1.0f), Q(N * N * N, 0.5f),
      Qn(N * N * N, -1.0f);
  const int Inside = (2 * N + 1) * N + 2;
  std::vector<std::vector<const void *>> Calls;
  auto Loop = loopWith<HostLoopEngine3D>(Exact);
  Step3D S(Loop.ranges(), StepEngine::Host,
           [&](const void *const *Pointers, int Count) {
             Calls.emplace_back(Pointers, Pointers + Count);
             if (Calls.size() == 1) {
               EXPECT_EQ(A.fn[Inside], -1.0f) << "the stencil ran first";
               A.f.assign(A.f.size(), 2.0f);
             }
           });
  S.run(Radius2(), 0.5f, A.f.data(), A.fn.data());
  const float *ConstU = U.data();
  S.run(Upwind(), 0.25f, ConstU, Q.data(), Qn.data());

  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_EQ(Calls[0], (std::vector<const void *>{A.f.data(), A.fn.data()}));
  EXPECT_EQ(Calls[1],
            (std::vector<const void *>{U.data(), Q.data(), Qn.data()}));
  // 0.5 * 2 + 2 + 2 * 2 + 3 * 2 + 4 * 2 + 5 * 2: the hook's values.
  EXPECT_EQ(A.fn[Inside], 31.0f);
  EXPECT_EQ(Qn[Inside], 0.5f);
}

//===----------------------------------------------------------------------===//
// stencilc's generated OpenMP code
//===----------------------------------------------------------------------===//

#if !defined(STENCILC_RUNTIME_TEST_HOST_ONLY)

TEST(OpenMPEngine, MarginNarrowerThanHaloIsRefused) {
  for (const ShortSide &S : ShortSides) {
    SCOPED_TRACE(S.side);
    Arrays A;
    const std::vector<float> Before = A.fn;
    auto Loop = loopWith<OpenMPLoopEngine3D>(S.margins);
    expectError<std::runtime_error>(
        [&] { Loop.run(Radius2(), 0.5f, A.f.data(), A.fn.data()); },
        {"Radius2 (openmp): its halo is ", S.side,
         "the loop's margins must be at least"});
    EXPECT_TRUE(A.fn == Before) << "nothing launched";
  }
  // The region's points as they are, last one included (x: margins 1, 2).
  Arrays A;
  auto Loop = loopWith<OpenMPLoopEngine3D>(ShortSides[0].margins);
  expectError<std::runtime_error>(
      [&] { Loop.run(Radius2(), 0.5f, A.f.data(), A.fn.data()); },
      {"(the loop runs x = 1 to 9, the arrays hold 0 to 11)"});
}

TEST(OpenMPEngine, ExactMarginsMatchTheHost) {
  Arrays Host, Omp;
  loopWith<HostLoopEngine3D>(Exact).run(Radius2(), 0.5f, Host.f.data(),
                                        Host.fn.data());
  loopWith<OpenMPLoopEngine3D>(Exact).run(Radius2(), 0.5f, Omp.f.data(),
                                          Omp.fn.data());
  EXPECT_EQ(std::memcmp(Host.fn.data(), Omp.fn.data(),
                        Host.fn.size() * sizeof(float)),
            0);
  // A stencil of halo 0 needs no margin.
  std::vector<double> F(N * N, 3.0), G(N * N, 0.0);
  Loop2D<OpenMPLoopEngine2D>(N, 0, 0, N, 0, 0)
      .run(Copy2d(), F.data(), G.data());
  EXPECT_TRUE(F == G);
}

// Runs from several threads of the program's own at once (std::thread, and
// an OpenMP parallel region of its own), each on its own arrays, give the
// host's bits: the engines keep no state between runs that threads share.
TEST(OpenMPEngine, RunsFromSeveralThreadsAtOnceMatchTheHost) {
  Arrays Host;
  loopWith<HostLoopEngine3D>(Exact).run(Radius2(), 0.5f, Host.f.data(),
                                        Host.fn.data());
  constexpr int Threads = 4, Runs = 20;
  std::vector<Arrays> Each(Threads);
  std::vector<int> Same(Threads, 0);
  auto Work = [&](int T) {
    for (int R = 0; R < Runs; ++R) {
      std::fill(Each[T].fn.begin(), Each[T].fn.end(), -1.0f);
      loopWith<OpenMPLoopEngine3D>(Exact).run(Radius2(), 0.5f, Each[T].f.data(),
                                              Each[T].fn.data());
      Same[T] += Each[T].fn == Host.fn;
    }
  };
  std::vector<std::thread> Started;
  for (int T = 0; T < Threads; ++T)
    Started.emplace_back(Work, T);
  for (std::thread &T : Started)
    T.join();
  for (int T = 0; T < Threads; ++T)
    EXPECT_EQ(Same[T], Runs) << "std::thread " << T;
  std::fill(Same.begin(), Same.end(), 0);
#pragma omp parallel for num_threads(Threads)
  for (int T = 0; T < Threads; ++T)
    Work(T);
  for (int T = 0; T < Threads; ++T)
    EXPECT_EQ(Same[T], Runs) << "OpenMP thread " << T;
}

// The x loop of an if/else printed as selects (both sides evaluated, then
// picked) gives the host's bits, with NaN, infinities and signed zeros.
TEST(OpenMPEngine, SelectsMatchTheHostBitForBit) {
  const int M = 19;
  const std::size_t Count = std::size_t(M) * M * M;
  std::vector<float> U(Count), Q(Count);
  const float Specials[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(), -1.5f, 2.25f};
  for (std::size_t I = 0; I < Count; ++I) {
    U[I] = I % 7 == 0 ? Specials[I % 6] : std::sin(0.3f * I);
    Q[I] = I % 5 == 0 ? Specials[(I / 5) % 6] : 2.0f * std::cos(0.7f * I);
  }
  std::vector<float> Host(Count, 7.0f), Omp(Count, 7.0f);
  Loop3D<HostLoopEngine3D>(M, 1, 1, M, 0, 1, M, 0, 0)
      .run(Upwind(), 0.25f, U.data(), Q.data(), Host.data());
  Loop3D<OpenMPLoopEngine3D>(M, 1, 1, M, 0, 1, M, 0, 0)
      .run(Upwind(), 0.25f, U.data(), Q.data(), Omp.data());
  EXPECT_EQ(std::memcmp(Host.data(), Omp.data(), Count * sizeof(float)), 0);
}

// An unset function pointer as the stencil: refused by name, as the
// generated engines do (the host engine called through it: a crash).
TEST(HostEngine, NullFunctionPointerIsRefused) {
  Arrays A;
  void (*Unset)(const stencil::Index3D &, const float *, float *) = nullptr;
  auto Loop = loopWith<HostLoopEngine3D>(Exact);
  expectError<std::invalid_argument>(
      [&] { Loop.run(Unset, A.f.data(), A.fn.data()); },
      {"the stencil is a null function pointer"});
}

TEST(OpenMPEngine, NullArrayIsRefused) {
  Arrays A;
  const float *NoInput = nullptr;
  float *NoOutput = nullptr;
  auto Loop = loopWith<OpenMPLoopEngine3D>(Exact);
  // The host engine's type: one catch for either engine.
  expectError<std::invalid_argument>(
      [&] { Loop.run(Radius2(), 0.5f, NoInput, A.fn.data()); },
      {"Radius2 (openmp): argument 2 (after the index; an array of float "
       "const*) is null"});
  expectError<std::invalid_argument>(
      [&] { Loop.run(Radius2(), 0.5f, A.f.data(), NoOutput); },
      {"argument 3 (after the index; an array of float*) is null"});
}

#endif
