// element_types.cpp - Fields of the element types besides float and double
// over MPI ranks: a bool mask (kept as bytes: std::vector<bool> has no array
// to hand a stencil), int and unsigned long long, exchanged with corners on a
// periodic domain. Each result and the gathered mask are compared with a
// serial loop written here, value for value. Also: a domain one point thick
// in y gets its ranks on x (MPI_Dims_create alone would split y); fill() by
// functions of as many coordinates as a 1-, 2- or 3-D domain has.
#include "periodic_grid.hpp"

#include <cstdio>
#include <string>
#include <vector>

struct STENCIL_KERNEL Masked {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const bool *mask,
                             const int *a, int *an) const {
    const int s = a[idx.ix<1, 0, 0>()] + a[idx.ix<-1, 0, 0>()] +
                  a[idx.ix<0, 1, 0>()] + a[idx.ix<0, -1, 0>()] +
                  a[idx.ix<1, 1, 1>()];
    an[idx.ix()] = mask[idx.ix<0, 0, -1>()] ? s : -s;
  }
};
struct STENCIL_KERNEL Wide {
  STENCIL_HD void operator()(const stencil::Index3D &idx,
                             const unsigned long long *a,
                             unsigned long long *an) const {
    an[idx.ix()] = a[idx.ix<1, 0, 0>()] * 3ull + a[idx.ix<0, 0, -1>()] +
                   (a[idx.ix<-1, -1, 0>()] >> 3);
  }
};

namespace {
const long long X = 9, Y = 8, Z = 7;
long long wrap(long long a, long long n) { return PeriodicGrid::wrap(a, n); }
bool mask(long long i, long long j, long long k) {
  return (wrap(i, X) + wrap(j, Y) + wrap(k, Z)) % 3 == 0;
}
int value(long long i, long long j, long long k) {
  return int(wrap(i, X) * 100 + wrap(j, Y) * 10 + wrap(k, Z));
}
unsigned long long wide(long long i, long long j, long long k) {
  return (unsigned long long)value(i, j, k) << 40 | 0xfedcbaull;
}
} // namespace

int main(int argc, char **argv) {
  return stencil::runMpiMain(argc, argv, [&] {
    const stencil::Domain d(MPI_COMM_WORLD, {X, Y, Z},
                            PeriodicGrid::periodic());
    const stencil::Halo h = stencil::haloOf(d.backend(), Masked(), Wide());
    stencil::Field<bool> m(d, h, "mask");
    stencil::Field<int> a(d, h, "a"), an(d, h, "an");
    stencil::Field<unsigned long long> w(d, h, "w"), wn(d, h, "wn");
    m.fill(mask);
    a.fill(value);
    w.fill(wide);
    stencil::HaloExchange ex(d);
    ex.append(m);
    ex.append(a);
    ex.append(w);
    stencil::DomainLoop loop(d);
    ex.transfer();
    loop.run(Masked(), m, a, an);
    loop.run(Wide(), w, wn);
    const std::vector<int> ga = an.gather();
    const std::vector<unsigned long long> gw = wn.gather();
    const std::vector<bool> gm = m.gather();
    const stencil::Domain thin(MPI_COMM_WORLD, {40, 1});
    stencil::DomainOptions blocksOfTwo;
    blocksOfTwo.minBlock[0] = blocksOfTwo.minBlock[1] = 2;
    const stencil::Domain narrow(MPI_COMM_WORLD, {3, 23}, blocksOfTwo);
    // fill() takes a function of as many coordinates as the domain has
    // (a 2-D one's F(i, j, k) gets k = 0); one of fewer is refused.
    stencil::Halo h2;
    h2.lo[0] = h2.hi[0] = 1;
    stencil::Field<int> byTwo(thin, h2, "byTwo"), byThree(thin, h2, "byThree");
    byTwo.fill([](long long i, long long j) { return int(i * 3 + j * 1000); });
    byThree.fill([](long long i, long long j, long long k) {
      return int(i * 3 + j * 1000 + k * 7);
    });
    const stencil::Domain line(MPI_COMM_WORLD, {13});
    stencil::Field<long long> byOne(line, h2, "byOne");
    byOne.fill([](long long i) { return i * i; });
    const std::vector<int> gTwo = byTwo.gather(), gThree = byThree.gather();
    const std::vector<long long> gOne = byOne.gather();
    bool refused = false;
    try {
      a.fill([](long long i, long long j) { return int(i + j); });
    } catch (const stencil::DomainError &E) {
      refused = std::string(E.what()).find("the function takes 2") !=
                std::string::npos;
    }
    if (d.rank() != 0)
      return 0;
    long long bad = !refused;
    if (!refused)
      std::printf("fill of a 3-D field by F(i, j): not refused, DIFFERS\n");
    for (long long i = 0; i < 40; ++i)
      bad += gTwo[i] != i * 3 || gThree[i] != i * 3;
    for (long long i = 0; i < 13; ++i)
      bad += gOne[i] != i * i;
    if (thin.procs(0) != thin.size() || thin.procs(1) != 1) {
      std::printf("a 40 x 1 domain split %s: DIFFERS from %d x 1\n",
                  thin.procsText().c_str(), thin.size());
      ++bad;
    }
    // Blocks of at least 2 points asked for: 3 x 23 on 4 ranks was split
    // 2 x 2 (blocks of 1 point in x, which a halo of 2 refuses); 1 x 4 fits.
    for (int D = 0; D < 2; ++D)
      if (narrow.procs(D) > 1 && narrow.smallestBlock(D) < 2) {
        std::printf("a 3 x 23 domain asking blocks of 2 split %s: DIFFERS\n",
                    narrow.procsText().c_str());
        ++bad;
      }
    const PeriodicGrid g{X, Y, Z};
    g.forEach([&](long long i, long long j, long long k) {
      const std::size_t n = g.at(i, j, k);
      const int s = value(i + 1, j, k) + value(i - 1, j, k) +
                    value(i, j + 1, k) + value(i, j - 1, k) +
                    value(i + 1, j + 1, k + 1);
      bad += ga[n] != (mask(i, j, k - 1) ? s : -s);
      bad += gw[n] != wide(i + 1, j, k) * 3ull + wide(i, j, k - 1) +
                          (wide(i - 1, j - 1, k) >> 3);
      bad += gm[n] != mask(i, j, k);
    });
    if (bad)
      std::printf("element types: %lld values DIFFER from the serial loop\n", bad);
    else
      std::printf("element types on %d ranks: bool, int, unsigned long long "
                  "bit-equal to the serial loop\n",
                  d.size());
    return bad ? 1 : 0;
  });
}
