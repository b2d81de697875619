// an5d_stencils.hpp - AN5D's stencils (its paper's names), as stencilc's DSL
// writes them: the temporal benchmark times them beside AN5D's own kernels,
// and e2e.temporal.cpu-threads runs their passes on CPU threads.
#ifndef STENCILC_AN5D_STENCILS_HPP
#define STENCILC_AN5D_STENCILS_HPP

#include <stencil/dsl.hpp>

/// AN5D's star3d1r.
struct STENCIL_KERNEL Star3d1rF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] =
        0.2500f * a[idx.ix()] + 0.1248f * a[idx.ix<-1, 0, 0>()] +
        0.1249f * a[idx.ix<1, 0, 0>()] + 0.1250f * a[idx.ix<0, -1, 0>()] +
        0.1251f * a[idx.ix<0, 1, 0>()] + 0.1252f * a[idx.ix<0, 0, -1>()] +
        0.1253f * a[idx.ix<0, 0, 1>()];
  }
};
struct STENCIL_KERNEL Star3d1rD {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const double *a,
                             double *b) const {
    b[idx.ix()] =
        0.2500 * a[idx.ix()] + 0.1248 * a[idx.ix<-1, 0, 0>()] +
        0.1249 * a[idx.ix<1, 0, 0>()] + 0.1250 * a[idx.ix<0, -1, 0>()] +
        0.1251 * a[idx.ix<0, 1, 0>()] + 0.1252 * a[idx.ix<0, 0, -1>()] +
        0.1253 * a[idx.ix<0, 0, 1>()];
  }
};

/// AN5D's star3d2r.
struct STENCIL_KERNEL Star3d2rF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] =
        0.2500f * a[idx.ix()] + 0.0620f * a[idx.ix<-1, 0, 0>()] +
        0.0621f * a[idx.ix<1, 0, 0>()] + 0.0622f * a[idx.ix<0, -1, 0>()] +
        0.0623f * a[idx.ix<0, 1, 0>()] + 0.0624f * a[idx.ix<0, 0, -1>()] +
        0.06245f * a[idx.ix<0, 0, 1>()] + 0.06255f * a[idx.ix<-2, 0, 0>()] +
        0.0626f * a[idx.ix<2, 0, 0>()] + 0.0627f * a[idx.ix<0, -2, 0>()] +
        0.0628f * a[idx.ix<0, 2, 0>()] + 0.0629f * a[idx.ix<0, 0, -2>()] +
        0.0630f * a[idx.ix<0, 0, 2>()];
  }
};

/// A 27-point box with a weight per point, as AN5D's box3d1r.
struct STENCIL_KERNEL Box3d1rF {
  STENCIL_HD void operator()(const stencil::Index3D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] =
        0.0370f * a[idx.ix<-1, -1, -1>()] + 0.0371f * a[idx.ix<0, -1, -1>()] +
        0.0372f * a[idx.ix<1, -1, -1>()] + 0.0373f * a[idx.ix<-1, 0, -1>()] +
        0.0374f * a[idx.ix<0, 0, -1>()] + 0.0375f * a[idx.ix<1, 0, -1>()] +
        0.0376f * a[idx.ix<-1, 1, -1>()] + 0.0377f * a[idx.ix<0, 1, -1>()] +
        0.0378f * a[idx.ix<1, 1, -1>()] + 0.0379f * a[idx.ix<-1, -1, 0>()] +
        0.0380f * a[idx.ix<0, -1, 0>()] + 0.0381f * a[idx.ix<1, -1, 0>()] +
        0.0382f * a[idx.ix<-1, 0, 0>()] + 0.0383f * a[idx.ix()] +
        0.0384f * a[idx.ix<1, 0, 0>()] + 0.0385f * a[idx.ix<-1, 1, 0>()] +
        0.0386f * a[idx.ix<0, 1, 0>()] + 0.0387f * a[idx.ix<1, 1, 0>()] +
        0.0388f * a[idx.ix<-1, -1, 1>()] + 0.0389f * a[idx.ix<0, -1, 1>()] +
        0.0390f * a[idx.ix<1, -1, 1>()] + 0.0391f * a[idx.ix<-1, 0, 1>()] +
        0.0392f * a[idx.ix<0, 0, 1>()] + 0.0393f * a[idx.ix<1, 0, 1>()] +
        0.0394f * a[idx.ix<-1, 1, 1>()] + 0.0395f * a[idx.ix<0, 1, 1>()] +
        0.0396f * a[idx.ix<1, 1, 1>()];
  }
};

/// AN5D's j2d5pt.
struct STENCIL_KERNEL J2d5ptF {
  STENCIL_HD void operator()(const stencil::Index2D &idx, const float *a,
                             float *b) const {
    b[idx.ix()] = (5.1f * a[idx.ix<0, -1>()] + 12.1f * a[idx.ix<-1, 0>()] +
                   15.0f * a[idx.ix()] + 12.2f * a[idx.ix<1, 0>()] +
                   5.2f * a[idx.ix<0, 1>()]) /
                  118.0f;
  }
};

#endif // STENCILC_AN5D_STENCILS_HPP
