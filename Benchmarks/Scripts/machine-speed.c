// The machine's speed of the moment, for reading the benchmarks' wall-clock figures: a
// CPU-bound loop whose work never changes, timed five times. When it takes longer, the
// machine is slower, whatever the engine does.
//
//     cc -O2 Benchmarks/Scripts/machine-speed.c -o /tmp/machine-speed && /tmp/machine-speed

#include <stdio.h>
#include <time.h>

static double milliseconds_since(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - start->tv_sec) * 1e3 + (now.tv_nsec - start->tv_nsec) / 1e6;
}

int main(void) {
  volatile unsigned long sink = 0;
  for (int round = 0; round < 5; round++) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned long s = 0;
    for (unsigned long i = 0; i < 50000000UL; i++) s += i * i ^ (s >> 3);
    sink = s;
    printf("cpu %.2f ms\n", milliseconds_since(&start));
  }
  return sink == 1;
}
