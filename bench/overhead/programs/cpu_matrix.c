/* CPU-bound: dense matrix multiplication (tight floating-point loops). */
#define _POSIX_C_SOURCE 200809L
#include <coz.h>
#include <stdio.h>

enum { N = 256 };
static double a[N][N], b[N][N], c[N][N];

int main(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      a[i][j] = (double)((i * 31 + j) % 17) / 17.0;
      b[i][j] = (double)((i + j * 7) % 13) / 13.0;
    }
  double trace = 0;
  for (int rep = 0; rep < 400; ++rep) {
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j)
        c[i][j] = 0;
      for (int k = 0; k < N; ++k)
        for (int j = 0; j < N; ++j)
          c[i][j] += a[i][k] * b[k][j];
    }
    trace += c[rep % N][rep % N];
    COZ_PROGRESS;
  }
  printf("trace %.6f\n", trace);
  return 0;
}
