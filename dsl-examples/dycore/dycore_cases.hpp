// dycore_cases.hpp - the physics around the stencils: dry air, the base
// states, and the cases the dycore runs (a warm bubble, a tracer carried
// round the periodic domain, linear gravity and acoustic waves), each as
// functions of a point's global coordinates, so every rank fills its own
// piece and the serial reference the whole grid with the same values.
#ifndef DYCORE_CASES_HPP
#define DYCORE_CASES_HPP

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace dycore {

constexpr double Pi = 3.14159265358979323846;

/// Dry air (SI units).
struct Gas {
  static constexpr double G = 9.81;
  static constexpr double Rd = 287.0;
  static constexpr double Cp = 1004.5;
  static constexpr double Cv = Cp - Rd;
  static constexpr double CpOverCv = Cp / Cv;
  static constexpr double P00 = 1.0e5; ///< reference pressure of theta

  /// The equation of state, p = p00 (Rd rho theta / p00)^(cp/cv), as the
  /// Diagnose stencil computes it (the same operations in the same order).
  static double pressure(double RhoTheta) {
    return P00 * std::pow(Rd * RhoTheta / P00, CpOverCv);
  }
  static double soundSpeed(double Temperature) {
    return std::sqrt(CpOverCv * Rd * Temperature);
  }
};

/// A horizontally uniform atmosphere at rest in hydrostatic balance.
struct BaseState {
  enum Kind { Neutral, Isothermal };
  Kind Type = Neutral;
  double T = 300.0; ///< theta (neutral) or the temperature (isothermal), K

  /// Density at height \p Z (m).
  double rho(double Z) const {
    if (Type == Isothermal)
      return pressure(Z) / (Gas::Rd * T);
    const double Exner = 1.0 - Gas::G * Z / (Gas::Cp * T);
    return Gas::P00 * std::pow(Exner, Gas::Cv / Gas::Rd) / (Gas::Rd * T);
  }
  /// Potential temperature at height \p Z.
  double theta(double Z) const {
    if (Type == Neutral)
      return T;
    return T * std::pow(Gas::P00 / pressure(Z), Gas::Rd / Gas::Cp);
  }
  /// Pressure at height \p Z, analytically.
  double pressure(double Z) const {
    if (Type == Isothermal)
      return Gas::P00 * std::exp(-Z * Gas::G / (Gas::Rd * T));
    const double Exner = 1.0 - Gas::G * Z / (Gas::Cp * T);
    return Gas::P00 * std::pow(Exner, Gas::Cp / Gas::Rd);
  }
  /// The warmest temperature of the column below \p Top (the fastest sound).
  double maxTemperature() const { return T; }
};

/// The scalars the stencils take.
struct Parameters {
  double Rdx, Rdy, Rdz; ///< inverse grid spacings, 1/m
  double Dt;            ///< time step, s
  int Kb, Kt;           ///< idx.k() of the lowest and highest level
};

/// The prognostic values of one point: rho, rho theta and rho q at the cell
/// centre, rho u, rho v and rho w on its west, south and bottom faces.
struct PointState {
  double Rho, RhoU, RhoV, RhoW, RhoT, RhoQ;
};

enum class CaseKind { Bubble, Tracer, GravityWave, AcousticWave, Rest };
constexpr CaseKind AllCases[] = {CaseKind::Bubble, CaseKind::Tracer,
                                 CaseKind::GravityWave, CaseKind::AcousticWave,
                                 CaseKind::Rest};

inline const char *caseName(CaseKind K) {
  switch (K) {
  case CaseKind::Bubble:
    return "bubble";
  case CaseKind::Tracer:
    return "tracer";
  case CaseKind::GravityWave:
    return "gravity-wave";
  case CaseKind::AcousticWave:
    return "acoustic-wave";
  case CaseKind::Rest:
    return "rest";
  }
  return "?";
}

/// A linear acoustic-gravity wave of an isothermal atmosphere between rigid
/// lids (one vertical half wavelength, one wavelength across x), travelling
/// in +x: w = W0 e^{z/2H} sin(m z) cos(k x - omega t) with omega a root of
///   omega^4 - omega^2 (c^2 (k^2 + m^2) + omega_a^2) + c^2 N^2 k^2 = 0,
/// omega_a = c / 2H the acoustic cut-off, N^2 = (gamma - 1) g^2 / c^2.
struct LinearWave {
  double K = 0, M = 0;     ///< wavenumbers in x and z
  double H = 0, C2 = 0;    ///< scale height, squared sound speed
  double Omega = 0;        ///< the root this mode has
  double Amplitude = 0.01; ///< W0, m/s

  /// The gravity (Gravity) or the acoustic root for wavenumbers \p Kx, \p Mz
  /// and N^2 times \p Stratification.
  double frequency(double Kx, double Mz, bool Gravity,
                   double Stratification = 1.0) const {
    const double N2 =
        Stratification * (Gas::CpOverCv - 1.0) * Gas::G * Gas::G / C2;
    const double Cutoff2 = C2 / (4.0 * H * H);
    const double B = C2 * (Kx * Kx + Mz * Mz) + Cutoff2;
    const double Root = std::sqrt(B * B - 4.0 * C2 * N2 * Kx * Kx);
    return std::sqrt(Gravity ? 0.5 * (B - Root) : 0.5 * (B + Root));
  }
  /// W(z), the vertical structure of w, and its derivative.
  double w(double Z) const { return std::exp(Z / (2 * H)) * std::sin(M * Z); }
  double dw(double Z) const {
    return std::exp(Z / (2 * H)) *
           (std::sin(M * Z) / (2 * H) + M * std::cos(M * Z));
  }
  /// Amplitudes of u and p' (times sin(kx - omega t)), from the linear x
  /// momentum and pressure equations, for base density \p Rho0.
  double u(double Z) const {
    return K * (Gas::G * w(Z) - C2 * dw(Z)) / (K * K * C2 - Omega * Omega);
  }
  double p(double Z, double Rho0) const { return Omega * Rho0 * u(Z) / K; }
  /// Amplitude of rho' (times sin(kx - omega t)), from continuity.
  double rho(double Z, double Rho0) const {
    return (K * Rho0 * u(Z) + Rho0 * (dw(Z) - w(Z) / H)) / Omega;
  }
};

/// What the dycore runs: the grid, the time step, the base state and the
/// initial state as functions of global coordinates.
class Case {
public:
  /// The case \p Kind on \p Size points (empty: its default size).
  Case(CaseKind Kind, const std::vector<long long> &Size) : kind_(Kind) {
    std::vector<long long> N = Size;
    if (N.empty())
      N = defaultSize(Kind);
    for (int D = 0; D < 3; ++D)
      n_[D] = N[D];
    if (n_[2] < 2)
      throw std::runtime_error("the dycore needs at least 2 levels");
    switch (Kind) {
    case CaseKind::Bubble:
      length_[0] = length_[1] = length_[2] = 10000.0;
      base_ = {BaseState::Neutral, 300.0};
      u0_ = 10.0, v0_ = 5.0;
      heat_ = 0.1;
      break;
    case CaseKind::Tracer:
      length_[0] = length_[1] = length_[2] = 10000.0;
      base_ = {BaseState::Neutral, 300.0};
      // One revolution in x and in y take the same time.
      u0_ = 40.0, v0_ = 40.0 * double(n_[1]) / double(n_[0]);
      length_[1] = length_[0] * double(n_[1]) / double(n_[0]);
      break;
    case CaseKind::Rest:
      length_[0] = length_[1] = length_[2] = 10000.0;
      base_ = {BaseState::Isothermal, 250.0};
      break;
    case CaseKind::GravityWave:
    case CaseKind::AcousticWave: {
      length_[0] = 20000.0, length_[2] = 10000.0;
      length_[1] = length_[0] / double(n_[0]) * double(n_[1]); // dy = dx
      base_ = {BaseState::Isothermal, 250.0};
      wave_.K = 2.0 * Pi / length_[0];
      wave_.M = Pi / length_[2];
      wave_.H = Gas::Rd * base_.T / Gas::G;
      wave_.C2 = Gas::CpOverCv * Gas::Rd * base_.T;
      wave_.Omega = wave_.frequency(wave_.K, wave_.M, isGravityWave());
      break;
    }
    }
    for (int D = 0; D < 3; ++D)
      spacing_[D] = length_[D] / double(n_[D]);
    // The acoustic limit of the explicit scheme: (c + |U|) dt (1/dx + 1/dy +
    // 1/dz) = 1, a third of the RK3 limit for centred differences in 1-D.
    const double Speed = Gas::soundSpeed(base_.maxTemperature()) +
                         std::sqrt(u0_ * u0_ + v0_ * v0_);
    dt_ = 1.0 /
          (Speed * (1.0 / spacing_[0] + 1.0 / spacing_[1] + 1.0 / spacing_[2]));
    if (Kind == CaseKind::Tracer) {
      // Exactly one revolution.
      const double Period = length_[0] / u0_;
      revolutionSteps_ = static_cast<int>(std::ceil(Period / dt_));
      dt_ = Period / revolutionSteps_;
    }
  }

  static std::vector<long long> defaultSize(CaseKind Kind) {
    switch (Kind) {
    case CaseKind::Bubble:
      return {32, 32, 16};
    case CaseKind::Tracer:
      return {32, 32, 4};
    case CaseKind::Rest:
      return {16, 16, 8};
    default:
      return {32, 2, 16};
    }
  }

  CaseKind kind() const { return kind_; }
  long long extent(int D) const { return n_[D]; }
  double spacing(int D) const { return spacing_[D]; }
  double length(int D) const { return length_[D]; }
  double dt() const { return dt_; }
  const BaseState &base() const { return base_; }
  const LinearWave &wave() const { return wave_; }
  bool isGravityWave() const { return kind_ == CaseKind::GravityWave; }
  bool isWave() const {
    return kind_ == CaseKind::GravityWave || kind_ == CaseKind::AcousticWave;
  }
  /// Steps of one revolution of the tracer case.
  int revolutionSteps() const { return revolutionSteps_; }
  double windU() const { return u0_; }
  double windV() const { return v0_; }

  /// The stencils' scalars, with \p Kb the idx.k() of the lowest level.
  Parameters parameters(int Kb) const {
    return {1.0 / spacing_[0],
            1.0 / spacing_[1],
            1.0 / spacing_[2],
            dt_,
            Kb,
            Kb + static_cast<int>(n_[2]) - 1};
  }

  /// Height of the centre of level \p K and of its bottom face.
  double zCentre(long long K) const { return (double(K) + 0.5) * spacing_[2]; }
  double zFace(long long K) const { return double(K) * spacing_[2]; }

  /// The base state's density and pressure at level \p K (the 1-D profiles);
  /// NaN outside the column, which no stencil reads. The pressure is the
  /// equation of state of the base rho theta, as Diagnose computes it.
  double rhoBase(long long K) const {
    return inColumn(K) ? base_.rho(zCentre(K)) : nan();
  }
  double pBase(long long K) const {
    return inColumn(K) ? Gas::pressure(rhoThetaBase(K)) : nan();
  }
  double rhoThetaBase(long long K) const {
    return base_.rho(zCentre(K)) * base_.theta(zCentre(K));
  }

  /// The surface heat flux under column (I, J) (the 2-D field), K kg m^-2
  /// s^-1: a positive pattern, periodic like the domain.
  double heat(long long I, long long J) const {
    if (heat_ == 0.0)
      return 0.0;
    const double X = (double(wrap(I, 0)) + 0.5) / double(n_[0]);
    const double Y = (double(wrap(J, 1)) + 0.5) / double(n_[1]);
    return heat_ * (1.0 + std::sin(2 * Pi * X) * std::sin(2 * Pi * Y));
  }

  /// Whether (I, J, K) is a point of the grid (not of a halo).
  bool contains(long long I, long long J, long long K) const {
    return inColumn(K) && I >= 0 && I < n_[0] && J >= 0 && J < n_[1];
  }

  /// The initial state at point (I, J, K); NaN outside the grid (the halo,
  /// which exchanges fill and no stencil reads beyond the lids).
  PointState initial(long long I, long long J, long long K) const {
    if (!contains(I, J, K))
      return {nan(), nan(), nan(), nan(), nan(), nan()};
    PointState S;
    S.Rho = density(I, J, K);
    S.RhoT = rhoTheta(I, K);
    S.RhoQ = S.Rho * tracer(I, J, K);
    const double RhoW = 0.5 * (density(I - 1, J, K) + S.Rho);
    const double RhoS = 0.5 * (density(I, J - 1, K) + S.Rho);
    S.RhoU = RhoW * windU(I, K);
    S.RhoV = RhoS * v0_;
    S.RhoW = K == 0 ? 0.0 : 0.5 * (density(I, J, K - 1) + S.Rho) * windW(I, K);
    return S;
  }

private:
  static double nan() { return std::numeric_limits<double>::quiet_NaN(); }
  bool inColumn(long long K) const { return K >= 0 && K < n_[2]; }
  long long wrap(long long I, int D) const {
    return ((I % n_[D]) + n_[D]) % n_[D];
  }
  /// Cell-centre coordinates of a periodic point, m.
  double x(long long I) const {
    return (double(wrap(I, 0)) + 0.5) * spacing_[0];
  }
  double y(long long J) const {
    return (double(wrap(J, 1)) + 0.5) * spacing_[1];
  }

  /// cos^2 of a distance measured in radii, 0 beyond one radius.
  static double bell(double R) {
    return R < 1.0 ? std::pow(std::cos(0.5 * Pi * R), 2) : 0.0;
  }
  /// Distance from (X, Y, Z) to a centre, in radii (periodic in x and y).
  double radii(double X, double Y, double Z, const double (&Centre)[3],
               const double (&Radius)[3]) const {
    const double P[3] = {X, Y, Z};
    double S = 0;
    for (int D = 0; D < 3; ++D) {
      double Dist = P[D] - Centre[D];
      if (D < 2)
        Dist -= length_[D] * std::round(Dist / length_[D]);
      S += (Dist / Radius[D]) * (Dist / Radius[D]);
    }
    return std::sqrt(S);
  }

  /// The bubble: 2 K warmer inside 2 km of (5, 5, 3) km.
  double thetaPerturbation(long long I, long long J, long long K) const {
    if (kind_ != CaseKind::Bubble)
      return 0.0;
    return 2.0 * bell(radii(x(I), y(J), zCentre(K), {5000.0, 5000.0, 3000.0},
                            {2000.0, 2000.0, 2000.0}));
  }

  /// rho theta: the base state's, or in the waves the pressure perturbation's
  /// linear share; the bubble keeps the base pressure (p' = 0).
  double rhoTheta(long long I, long long K) const {
    const double Base = rhoThetaBase(K);
    if (!isWave())
      return Base;
    const double Z = zCentre(K);
    const double P0 = base_.pressure(Z);
    const double Pp =
        wave_.Amplitude * wave_.p(Z, base_.rho(Z)) * std::sin(wave_.K * x(I));
    return Base + Pp * Base / (Gas::CpOverCv * P0);
  }
  double density(long long I, long long J, long long K) const {
    const double Z = zCentre(K);
    if (kind_ == CaseKind::Bubble)
      return rhoThetaBase(K) / (base_.theta(Z) + thetaPerturbation(I, J, K));
    if (isWave())
      return base_.rho(Z) + wave_.Amplitude * wave_.rho(Z, base_.rho(Z)) *
                                std::sin(wave_.K * x(I));
    return base_.rho(Z);
  }
  /// u on the west face of (I, K) and w on the bottom face.
  double windU(long long I, long long K) const {
    if (!isWave())
      return u0_;
    return wave_.Amplitude * wave_.u(zCentre(K)) *
           std::sin(wave_.K * double(wrap(I, 0)) * spacing_[0]);
  }
  double windW(long long I, long long K) const {
    if (!isWave())
      return 0.0;
    return wave_.Amplitude * wave_.w(zFace(K)) * std::cos(wave_.K * x(I));
  }
  /// The tracer's mixing ratio: a cos^2 bell, 0 outside.
  double tracer(long long I, long long J, long long K) const {
    if (kind_ == CaseKind::Bubble)
      return bell(radii(x(I), y(J), zCentre(K), {3000.0, 6000.0, 4000.0},
                        {2500.0, 2500.0, 2500.0}));
    if (kind_ == CaseKind::Tracer)
      return bell(
          radii(x(I), y(J), zCentre(K),
                {0.5 * length_[0], 0.5 * length_[1], 0.5 * length_[2]},
                {0.25 * length_[0], 0.25 * length_[1], 0.4 * length_[2]}));
    return 0.0;
  }

  CaseKind kind_;
  long long n_[3] = {1, 1, 1};
  double length_[3] = {1, 1, 1}, spacing_[3] = {1, 1, 1};
  double dt_ = 0;
  BaseState base_;
  double u0_ = 0, v0_ = 0, heat_ = 0;
  LinearWave wave_;
  int revolutionSteps_ = 0;
};

} // namespace dycore

#endif // DYCORE_CASES_HPP
