#ifndef C_NGHTTP2_SHIM_H
#define C_NGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>

// A parenthesised expression macro ((1U << 16) - 1); Swift imports only literal macros.
static inline uint32_t CNGHTTP2_initial_window_size(void) { return NGHTTP2_INITIAL_WINDOW_SIZE; }

// Shift-expression macro ((1 << 12)), likewise not imported.
static inline uint32_t CNGHTTP2_default_header_table_size(void) { return NGHTTP2_DEFAULT_HEADER_TABLE_SIZE; }

// The headers' version string macro, to compare with what the loaded library reports.
static inline const char *CNGHTTP2_header_version(void) { return NGHTTP2_VERSION; }

#endif
