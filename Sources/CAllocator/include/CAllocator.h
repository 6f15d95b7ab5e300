#ifndef CALLOCATOR_H
#define CALLOCATOR_H

// The worker's release build links jemalloc, which takes malloc over from glibc for the whole
// process (Swift runtime, rabbitmq-c, nghttp2, OpenSSL): docs/decisions.md, "jemalloc". Debug,
// sanitizer and fuzzing builds keep glibc's, which the sanitizers replace with their own.

// The allocator serving malloc in this process: "jemalloc <version>", "glibc malloc", or, when jemalloc
// is loaded but something else serves malloc, "glibc malloc (jemalloc loaded but not serving malloc)".
const char *CAllocator_description(void);

#endif
