// dycore_fields.hpp - the dycore's arrays by role, for any kind of array:
// raw pointers (the serial reference), stencil::Field (a Domain) or the
// gathered global values (std::vector).
#ifndef DYCORE_FIELDS_HPP
#define DYCORE_FIELDS_HPP

namespace dycore {

/// The prognostic variables of one time level or Runge-Kutta stage (see
/// PointState for where each lives on the grid).
template <typename A> struct Prognostic {
  A Rho, RhoU, RhoV, RhoW, RhoT, RhoQ;

  /// Each array is Make(name), in the order of the members.
  template <typename Make>
  explicit Prognostic(Make M)
      : Rho(M("rho")), RhoU(M("rhou")), RhoV(M("rhov")), RhoW(M("rhow")),
        RhoT(M("rhot")), RhoQ(M("rhoq")) {}

  /// Calls F(array, name) for each, in the order of the members.
  template <typename Fn> void forEach(Fn F) {
    F(Rho, "rho"), F(RhoU, "rhou"), F(RhoV, "rhov"), F(RhoW, "rhow");
    F(RhoT, "rhot"), F(RhoQ, "rhoq");
  }
};

/// What a stage diagnoses from its state: the perturbation pressure, theta
/// and q at the centres, the velocities on the faces.
template <typename A> struct Diagnostic {
  A Pp, Th, Q, U, V, W;

  template <typename Make>
  explicit Diagnostic(Make M)
      : Pp(M("pp")), Th(M("th")), Q(M("q")), U(M("u")), V(M("v")), W(M("w")) {}

  template <typename Fn> void forEach(Fn F) {
    F(Pp, "pp"), F(Th, "th"), F(Q, "q"), F(U, "u"), F(V, "v"), F(W, "w");
  }
};

/// The fluxes of a stage: of rho theta (T), rho q (Q) and the three momenta
/// (U, V, W), each in x, y and z.
template <typename A> struct Fluxes {
  A Tx, Ty, Tz, Qx, Qy, Qz, Ux, Uy, Uz, Vx, Vy, Vz, Wx, Wy, Wz;

  template <typename Make>
  explicit Fluxes(Make M)
      : Tx(M("ftx")), Ty(M("fty")), Tz(M("ftz")), Qx(M("fqx")), Qy(M("fqy")),
        Qz(M("fqz")), Ux(M("fux")), Uy(M("fuy")), Uz(M("fuz")), Vx(M("fvx")),
        Vy(M("fvy")), Vz(M("fvz")), Wx(M("fwx")), Wy(M("fwy")), Wz(M("fwz")) {}

  template <typename Fn> void forEach(Fn F) {
    F(Tx, "ftx"), F(Ty, "fty"), F(Tz, "ftz"), F(Qx, "fqx"), F(Qy, "fqy");
    F(Qz, "fqz"), F(Ux, "fux"), F(Uy, "fuy"), F(Uz, "fuz"), F(Vx, "fvx");
    F(Vy, "fvy"), F(Vz, "fvz"), F(Wx, "fwx"), F(Wy, "fwy"), F(Wz, "fwz");
  }
};

} // namespace dycore

#endif // DYCORE_FIELDS_HPP
