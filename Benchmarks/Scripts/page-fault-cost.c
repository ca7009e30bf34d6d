// What a page fault costs on this machine, against writing a page already mapped: the part of
// a preserve's or a restore's time that callgrind does not count.
//
//     cc -O2 Benchmarks/Scripts/page-fault-cost.c -o /tmp/page-fault-cost && /tmp/page-fault-cost

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double microseconds_since(const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - start->tv_sec) * 1e6 + (now.tv_nsec - start->tv_nsec) / 1e3;
}

int main(void) {
  const size_t size = 64 << 20, page = 4096, pages = size / page;
  for (int round = 0; round < 5; round++) {
    char *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
      perror("mmap of 64 MB");
      return 1;
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (size_t offset = 0; offset < size; offset += page) memory[offset] = 1;
    printf("fault %.3f us/page", microseconds_since(&start) / pages);
    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(memory, 0, size);
    printf(", writing a mapped page %.3f us/page\n", microseconds_since(&start) / pages);
    munmap(memory, size);
  }
  return 0;
}
