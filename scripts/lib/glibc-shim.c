/* The glibc-only symbols Debian's libstdc++.so.6 and libgcc_s.so.1 import, for running a
 * program built for musl that needs libstdc++ (Bun's musl build: scripts/lib/foreign-smoke.sh)
 * with Debian's copies under musl's loader, where no musl libstdc++ can be installed. musl's
 * loader ignores symbol versions, so the rest of glibc's ABI they use resolves to musl's.
 * Loaded with LD_PRELOAD; a smoke-test aid, never shipped. */
#define _GNU_SOURCE
#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/types.h>
#include <time.h>

/* libstdc++ reads it to skip atomics in a single-threaded process: 0 is always safe. */
char __libc_single_threaded = 0;

uint32_t arc4random(void) {
  uint32_t v = 0;
  while (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
  }
  return v;
}

void arc4random_buf(void *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = getrandom((char *)buf + done, n - done, 0);
    if (r > 0) done += (size_t)r;
  }
}

uint32_t arc4random_uniform(uint32_t bound) { return bound ? arc4random() % bound : 0; }

size_t __strftime_l(char *s, size_t max, const char *fmt, const struct tm *tm, locale_t loc) {
  return strftime_l(s, max, fmt, tm, loc);
}

/* thread_local destructors: not run (a smoke test's threads end with the process). */
int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso) {
  (void)dtor;
  (void)obj;
  (void)dso;
  return 0;
}

/* -1: "not found", so libgcc's unwinder falls back to dl_iterate_phdr, which musl has. */
int _dl_find_object(void *pc, void *result) {
  (void)pc;
  (void)result;
  return -1;
}

/* x86 libgcc_s's CPU feature probe (its ifunc resolvers read __cpu_model): no features. */
struct { unsigned vendor, type, subtype, features[1]; } __cpu_model;
int __cpu_indicator_init(void) { return 0; }

/* aarch64 libstdc++'s CPU feature probe (glibc's internal alias of getauxval). */
unsigned long __getauxval(unsigned long type) { return getauxval(type); }
