// j2d5pt_level_barrier.cu - a probe, hand-written CUDA (not stencilc's): the
// 2-D 5-point f32 stencil of temporal_benchmark.cpp in passes of T steps
// with a barrier a level, each level's rows in a queue of three registers and
// a row's neighbours along x from one double-buffered shared row, where
// stencilc's passes keep a ring of planes a level in shared memory and meet
// once a plane. It asks what that kernel structure gives with the division
// by 118 exact. Modes: 0 the IEEE division; 1 the split reciprocal's product
// (ExactReciprocal.h), divided again at a level where it may differ; 2 the
// product alone (not the division below its least exact value: what
// --use_fast_math's kernels get); 3 the product, marked where it may differ,
// the block's chunk computed again dividing if any was (the chunk reads only
// the pass's input). Each pass's output is checked bit for bit against one
// step at a time (IEEE division) after 60 steps (fewer for T not dividing
// 60) on 16384^2 (or argv[1]), every run from the same input; margin fixed.
// Prints GCells/s per time step (points inside the margin x steps / s).
//
//   nvcc -O3 -arch=sm_90 -std=c++17 j2d5pt_level_barrier.cu && ./a.out [N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__);  \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

struct Div {
  float hi, lo, least;
};

__device__ __forceinline__ float sum5(float up, float left, float mid,
                                      float right, float down) {
  return 5.1f * up + 12.1f * left + 15.0f * mid + 12.2f * right + 5.2f * down;
}

// Whether the product q may not be s / 118: a quotient below its least exact
// value or a NaN, or -0 (118's split parts differ in sign: the product of
// -0 is +0); +0's is right.
__device__ __forceinline__ bool mayDiffer(float s, float q, const Div &d) {
  return !(fabsf(q) >= d.least) && __float_as_uint(s) != 0u;
}

// Mode 0: IEEE division. 1: exact product, division where it may differ
// (a branch a level). 2: product alone (not exact below 'least').
template <int Mode>
__device__ __forceinline__ float divide(float s, const Div &d) {
  if (Mode == 0)
    return __fdiv_rn(s, 118.0f);
  const float q = __fmaf_rn(s, d.hi, __fmul_rn(s, d.lo));
  if (Mode == 1 && mayDiffer(s, q, d))
    return __fdiv_rn(s, 118.0f);
  return q;
}

__global__ void oneStep(const float *__restrict__ in, float *__restrict__ out,
                        int N) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int y = blockIdx.y + 1;
  if (x >= N - 1)
    return;
  const long c = (long)y * N + x;
  out[c] = __fdiv_rn(sum5(in[c - N], in[c - 1], in[c], in[c + 1], in[c + N]),
                     118.0f);
}

__host__ __device__ constexpr int mod3(int v) { return ((v % 3) + 3) % 3; }

// One chunk of one tile: Mode as divide<> (3: products, inexact flagged).
// CheckRows: some level's row is off [1, N-2]; CheckCols: some column is
// off [1, N-2] (the block holds a point of the margin or past it).
template <int T, int BX, int Mode, bool CheckRows, bool CheckCols>
__device__ __forceinline__ bool body(const float *__restrict__ in,
                                     float *__restrict__ out, int N, int y0,
                                     int y1, int iBegin, int iEnd, Div d) {
  __shared__ float sh[2][BX + 2];
  constexpr int U = BX - 2 * T;
  const int tid = threadIdx.x;
  const int x = blockIdx.x * U + 1 - T + tid;
  const bool colOk = x >= 1 && x < N - 1;
  const bool storeCol = colOk && tid >= T && tid < BX - T;
  const float *src = in + min(max(x, 0), N - 1);
  float q[T][3];
#pragma unroll
  for (int l = 0; l < T; ++l)
    q[l][0] = q[l][1] = q[l][2] = 0.0f;
  bool inexact = false;
  int bsel = 0;
  for (int i = iBegin; i < iEnd; i += 3) {
#pragma unroll
    for (int u = 0; u < 3; ++u) {
      const int ii = i + u;
      q[0][u] = (!CheckRows || (ii >= 0 && ii < N)) ? src[(long)ii * N] : 0.0f;
#pragma unroll
      for (int l = 1; l <= T; ++l) {
        const int r = ii - l;
        const float up = q[l - 1][mod3(u - l - 1)];
        const float mid = q[l - 1][mod3(u - l)];
        const float down = q[l - 1][mod3(u - l + 1)];
        const int b = (T % 2 == 0) ? (l & 1) : bsel;
        if (T % 2 != 0)
          bsel ^= 1;
        sh[b][tid + 1] = mid;
        __syncthreads();
        const float left = sh[b][tid], right = sh[b][tid + 2];
        const float s = sum5(up, left, mid, right, down);
        float v;
        if (Mode == 3) {
          v = __fmaf_rn(s, d.hi, __fmul_rn(s, d.lo));
          inexact |= mayDiffer(s, v, d);
        } else {
          v = divide<Mode>(s, d);
        }
        if (CheckCols && !colOk)
          v = mid;
        if (CheckRows && !(r >= 1 && r <= N - 2))
          v = mid;
        if (l < T)
          q[l][mod3(u - l)] = v;
        else if (storeCol && r >= y0 && r < y1)
          out[(long)r * N + x] = v;
      }
    }
  }
  return inexact;
}

template <int T, int BX, int Mode, bool CheckRows, bool CheckCols>
__device__ __forceinline__ void chunk(const float *__restrict__ in,
                                      float *__restrict__ out, int N, int y0,
                                      int y1, int iBegin, int iEnd, Div d) {
  const bool inexact = body<T, BX, Mode, CheckRows, CheckCols>(
      in, out, N, y0, y1, iBegin, iEnd, d);
  // Products where one may not be the quotient: the chunk again, dividing
  // (it reads only 'in' and rewrites the same points of 'out').
  if (Mode == 3 && __syncthreads_or(inexact))
    body<T, BX, 0, CheckRows, CheckCols>(in, out, N, y0, y1, iBegin, iEnd, d);
}

template <int T, int BX, int Mode, int MB>
__global__ void __launch_bounds__(BX, MB)
    pass(const float *__restrict__ in, float *__restrict__ out, int N,
         int chunkLen, Div d) {
  constexpr int U = BX - 2 * T;
  const int y0 = 1 + blockIdx.y * chunkLen;
  const int y1 = min(y0 + chunkLen, N - 1);
  int iBegin = y0 - T;
  iBegin -= mod3(iBegin);
  int iEnd = y1 + T;
  iEnd += mod3(iBegin - iEnd);
  const int xFirst = blockIdx.x * U + 1 - T;
  const bool cols = xFirst < 1 || xFirst + BX - 1 > N - 2;
  const bool rows = iBegin - T < 1 || iEnd - 2 > N - 2;
  if (rows || cols)
    chunk<T, BX, Mode, true, true>(in, out, N, y0, y1, iBegin, iEnd, d);
  else
    chunk<T, BX, Mode, false, false>(in, out, N, y0, y1, iBegin, iEnd, d);
}

struct Runner {
  int N;
  float *A, *B;
  Div d;
};

template <int T, int BX, int Mode, int MB = 1>
void runPasses(Runner &R, int steps, int chunk) {
  constexpr int U = BX - 2 * T;
  dim3 grid((R.N - 2 + U - 1) / U, (R.N - 2 + chunk - 1) / chunk);
  for (int s = 0; s < steps; s += T) {
    pass<T, BX, Mode, MB><<<grid, BX>>>(R.A, R.B, R.N, chunk, R.d);
    std::swap(R.A, R.B);
  }
}

void runOne(Runner &R, int steps) {
  dim3 grid((R.N - 2 + 255) / 256, R.N - 2);
  for (int s = 0; s < steps; ++s) {
    oneStep<<<grid, 256>>>(R.A, R.B, R.N);
    std::swap(R.A, R.B);
  }
}

int main(int argc, char **argv) {
  const int N = argc > 1 ? std::atoi(argv[1]) : 16384;
  const int steps = 60;
  const size_t n = (size_t)N * N;
  std::vector<float> h(n), got(n);
  unsigned s = 12345;
  for (auto &v : h) {
    s = s * 1664525u + 1013904223u;
    v = (s >> 8) * (1.0f / 16777216.0f);
  }
  // The split reciprocal of 118 as stencilc prints it (--emit=cuda).
  const Div d{0.008474576f, -1.5785128e-11f, 2.524355e-29f};
  Runner R{N, nullptr, nullptr, d};
  float *dA, *dB, *dIn;
  CK(cudaMalloc(&dA, n * 4));
  CK(cudaMalloc(&dB, n * 4));
  CK(cudaMalloc(&dIn, n * 4));
  CK(cudaMemcpy(dIn, h.data(), n * 4, cudaMemcpyHostToDevice));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  auto reset = [&] {
    CK(cudaMemcpy(dA, dIn, n * 4, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(dB, dIn, n * 4, cudaMemcpyDeviceToDevice));
    R.A = dA;
    R.B = dB;
  };
  // copy bandwidth
  {
    float best = 1e30f;
    for (int k = 0; k < 5; ++k) {
      cudaEventRecord(e0);
      CK(cudaMemcpy(dB, dA, n * 4, cudaMemcpyDeviceToDevice));
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      best = std::min(best, ms);
    }
    std::printf("copy %.1f GB/s\n", 2.0 * n * 4 / best / 1e6);
  }
  std::map<int, std::vector<float>> refs; // per step count
  auto refFor = [&](int k) -> const std::vector<float> & {
    auto &v = refs[k];
    if (v.empty()) {
      reset();
      runOne(R, k);
      CK(cudaDeviceSynchronize());
      v.resize(n);
      CK(cudaMemcpy(v.data(), R.A, n * 4, cudaMemcpyDeviceToHost));
    }
    return v;
  };
  auto time = [&](const char *name, int steps, auto fn) {
    const std::vector<float> &ref = refFor(steps);
    const double cells = (double)(N - 2) * (N - 2) * steps;
    std::vector<float> t;
    for (int k = 0; k < 4; ++k) {
      reset();
      cudaEventRecord(e0);
      fn();
      cudaEventRecord(e1);
      CK(cudaEventSynchronize(e1));
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (k > 0)
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    CK(cudaMemcpy(got.data(), R.A, n * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t k = 0; k < n; ++k)
      bad += std::memcmp(&got[k], &ref[k], 4) != 0;
    std::printf("%-28s %8.1f GCells/s  differs at %zu\n", name,
                cells / (t[1] * 1e-3) / 1e9, bad);
  };
  time("one step", steps, [&] { runOne(R, steps); });
#define CASE(T, BX, M, C)                                                      \
  time("T=" #T " BX=" #BX " mode=" #M " chunk=" #C, steps / T * T,             \
       [&] { runPasses<T, BX, M>(R, steps / T * T, C); })
#define MODES(T, BX, C)                                                        \
  CASE(T, BX, 0, C);                                                           \
  CASE(T, BX, 1, C);                                                           \
  CASE(T, BX, 2, C);                                                           \
  CASE(T, BX, 3, C)
  MODES(4, 256, 256);
  MODES(6, 256, 256);
  MODES(8, 256, 256);
  MODES(10, 256, 256);
#define CASEB(T, BX, M, C, MB)                                                 \
  time("T=" #T " BX=" #BX " mode=" #M " chunk=" #C " blocks=" #MB,             \
       steps / T * T, [&] { runPasses<T, BX, M, MB>(R, steps / T * T, C); })
  // Registers held for 5 and 6 blocks of 256 threads an SM.
  CASEB(8, 256, 1, 256, 5);
  CASEB(10, 256, 1, 256, 5);
  CASEB(8, 256, 3, 256, 5);
  CASEB(10, 256, 3, 256, 5);
  CASEB(6, 256, 3, 256, 6);
  CASEB(8, 256, 3, 256, 6);
  CASEB(10, 256, 3, 256, 6);
  CASEB(8, 256, 2, 256, 6);
  CASEB(10, 256, 2, 256, 6);
  return 0;
}
