// stencil/domain_step.hpp - a step (STENCIL_STEP) over a rank's own points,
// with exactly the halo exchanges stencilc's dependency graph of the step
// asks for.
//
//   stencil::DomainStep step(loop);             // loop: a DomainLoop
//   step.run(advance, dt, rho0, u, fx, un);     // u, fx, un: Field<float>
//
// The step's stencils run one after the other over the rank's own points,
// each through its own generated code (the plan's fused kernels are for one
// domain: a fused consumer would recompute the producer in the halo, which
// needs deeper halos of its inputs). Before a call that reads an array off
// the centre, that array's halo is exchanged when the step (or the code
// before it) wrote it: the exchange table stencilc generated with the step
// (--emit=ir "exchanges"), so an array that nothing read off the centre is
// never exchanged. With overlap (the default) the call's interior, which
// reads no halo, runs while the exchange travels, and its boundary slabs
// after it (seed 001's one-divided overlap); every point is computed by
// the same code either way, so the results are bit for bit those of one
// rank. Arrays the step reads off the centre and may exchange are Fields;
// arrays of lower rank (profiles) are pointers to the rank's piece.
#ifndef STENCIL_DOMAIN_STEP_HPP
#define STENCIL_DOMAIN_STEP_HPP

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stencil/domain_loop.hpp>
#include <stencil/halo_exchange.hpp>
#include <stencil/region_split.hpp>
#include <stencil/step.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace stencil {

namespace detail {
/// A Field argument as the generated code takes it (its data), anything
/// else as given.
template <typename A> decltype(auto) stepValue(A &Arg) {
  if constexpr (IsField<std::remove_const_t<A>>::value)
    return Arg.data();
  else
    return static_cast<const A &>(Arg);
}
} // namespace detail

class DomainStep {
public:
  explicit DomainStep(DomainLoop &Loop) : loop_(&Loop) {}

  /// Runs step function \p Function (annotated STENCIL_STEP, compiled by
  /// stencilc for the domain's backend) with \p A: Fields for its arrays of
  /// every dimension, pointers for arrays of lower rank, scalars. Collective.
  template <typename F, typename... Args>
  void run(F &&Function, Args &&...A) {
    runSteps(true, std::forward<F>(Function), std::forward<Args>(A)...);
  }
  /// The same without overlap: each exchange completes before its call.
  template <typename F, typename... Args>
  void runWithoutOverlap(F &&Function, Args &&...A) {
    runSteps(false, std::forward<F>(Function), std::forward<Args>(A)...);
  }

private:
  template <typename F, typename... Args>
  void runSteps(bool Overlap, F &&Function, Args &&...A) {
    DomainLoop &L = *loop_;
    const Domain &D = L.domain();
    using Pointer = std::decay_t<F>;
    static_assert(std::is_pointer_v<Pointer>,
                  "DomainStep::run takes a step function");
    const Pointer Address = Function;
    const GeneratedStep *E = findGeneratedStep(
        D.backend(), reinterpret_cast<const void *>(Address));
    D.agree("the step a DomainStep runs",
            E ? std::string("step '") + E->name + "'"
              : std::string("a step without generated code"));
    if (!E)
      throw DomainError(std::string("no generated ") +
                        backendName(D.backend()) +
                        " code for this step function: annotate it "
                        "STENCIL_STEP and run stencilc on its file");
    const std::string Name = std::string("step '") + E->name + "'";
    const detail::FieldShape Shape =
        detail::fieldShapeOf(D, E->dims, Name, A...);
    Halo Reads;
    for (int X = 0; X < 4; ++X) {
      Reads.lo[X] = E->halo[X][0];
      Reads.hi[X] = E->halo[X][1];
    }
    Reads.corners = false;
    for (int I = 0; I < E->exchangeCount; ++I)
      Reads.corners = Reads.corners || E->exchanges[I].diagonal;
    (detail::checkHaloCovers(Name, Reads, A), ...);

    // The arguments as the step launcher takes them, and the Fields among
    // them by position (what an exchange appends).
    using Params = typename detail::StencilTraits<Pointer>::Params;
    auto Values = convert(Params(), A...);
    std::vector<std::function<void(HaloExchange &)>> Appenders;
    std::vector<const void *> Identity;
    (note(Appenders, Identity, A), ...);
    const Region Own = detail::ownRegion(D, *Shape.halo);
    const Grid G = *Shape.grid;
    std::apply(
        [&](auto &...V) {
          void *Each[] = {const_cast<void *>(static_cast<const void *>(&V))..., nullptr};
          for (int C = 0; C < E->callCount; ++C)
            runCall(*E, Name, C, G, Own, Each, Appenders, Identity, Overlap);
        },
        Values);
  }

  template <typename... P, typename... Args>
  static std::tuple<P...> convert(detail::ParamList<P...>, Args &...A) {
    static_assert(sizeof...(P) == sizeof...(Args),
                  "wrong number of arguments for this step (the "
                  "stencil::Step is not passed)");
    return std::tuple<P...>(detail::stepValue(A)...);
  }

  template <typename A>
  static void note(std::vector<std::function<void(HaloExchange &)>> &Appenders,
                   std::vector<const void *> &Identity, A &Arg) {
    if constexpr (detail::IsField<std::remove_const_t<A>>::value) {
      auto *Field = const_cast<std::remove_const_t<A> *>(&Arg);
      Appenders.push_back([Field](HaloExchange &X) { X.append(*Field); });
      Identity.push_back(Field);
    } else {
      Appenders.push_back(nullptr);
      Identity.push_back(nullptr);
    }
  }

  /// Call \p C of step \p E: the exchanges it needs, then its points.
  void runCall(const GeneratedStep &E, const std::string &Name, int C,
               const Grid &G, const Region &Own, void *const *Args,
               const std::vector<std::function<void(HaloExchange &)>> &Appenders,
               const std::vector<const void *> &Identity, bool Overlap) {
    DomainLoop &L = *loop_;
    HaloExchange *X = exchangeBefore(E, Name, C, Appenders, Identity);
    BoundStencil B;
    B.name = E.name;
    B.own = Own;
    for (int D = 0; D < 4; ++D) {
      B.reads.lo[D] = E.callHalos[C][D][0];
      B.reads.hi[D] = E.callHalos[C][D][1];
    }
    const GeneratedStep *Entry = &E;
    B.launch = [Entry, C, G, Args, Name](const Region &R,
                                         const LaunchConfig &Config) {
      if (const char *Error = Entry->launchCall(C, G, R, Config, Args))
        throw std::runtime_error("stencil: " + Name + " (" +
                                 backendName(Entry->backend) + "), call " +
                                 std::to_string(C) + ": " + Error);
    };
    if (!X) {
      L.launch(B, Own);
      return;
    }
    if (!Overlap) {
      X->transfer(L.stream());
      L.launch(B, Own);
      return;
    }
    bool Split[3];
    L.exchangedDims(Split);
    const RegionSplit Parts = splitRegion(Own, L.domain().dims(), B.reads, Split);
    X->start(L.stream());
    L.fork();
    L.launch(B, Parts.interior);
    X->wait(L.sideStream());
    for (const Region &R : Parts.boundary)
      L.launch(B, R, /*Side=*/true);
    L.join();
  }

  /// The exchange of the arrays call \p C reads off the centre after they
  /// were written (made once per step, call and Fields), or null.
  HaloExchange *
  exchangeBefore(const GeneratedStep &E, const std::string &Name, int C,
                 const std::vector<std::function<void(HaloExchange &)>> &Appenders,
                 const std::vector<const void *> &Identity) {
    std::vector<int> Params;
    for (int I = 0; I < E.exchangeCount; ++I)
      if (E.exchanges[I].before == C)
        Params.push_back(E.exchanges[I].param);
    if (Params.empty())
      return nullptr;
    std::string Key = std::to_string(reinterpret_cast<std::uintptr_t>(&E)) +
                      "/" + std::to_string(C);
    for (int P : Params) {
      if (!Appenders[P])
        throw DomainError(Name + ": argument " + std::to_string(P + 1) +
                          " is read off the centre by call " +
                          std::to_string(C) +
                          " and its halo must be exchanged: pass it as a "
                          "stencil::Field");
      Key += "/" + std::to_string(reinterpret_cast<std::uintptr_t>(Identity[P]));
    }
    std::unique_ptr<HaloExchange> &X = exchanges_[Key];
    if (!X) {
      X = std::make_unique<HaloExchange>(loop_->domain());
      for (int P : Params)
        Appenders[P](*X);
    }
    return X.get();
  }

  DomainLoop *loop_;
  /// The exchanges made so far, by step, call and Fields.
  std::map<std::string, std::unique_ptr<HaloExchange>> exchanges_;
};

} // namespace stencil

#endif // STENCIL_DOMAIN_STEP_HPP
