/* tprof-macros.h — symbol export and C++ guards shared by the public headers. */
/* SPDX-License-Identifier: MIT */
#pragma once

#if defined(TPROF_CAPTURE_COMPILATION)
# define TPROF_EXPORT __attribute__((visibility ("default"))) extern
#else
# define TPROF_EXPORT extern
#endif

#ifdef __cplusplus
# define TPROF_BEGIN_DECLS extern "C" {
# define TPROF_END_DECLS }
#else
# define TPROF_BEGIN_DECLS
# define TPROF_END_DECLS
#endif

#if defined(__GNUC__) || defined(__clang__)
# define TPROF_LIKELY(x) __builtin_expect (!!(x), 1)
# define TPROF_UNLIKELY(x) __builtin_expect (!!(x), 0)
#else
# define TPROF_LIKELY(x) (x)
# define TPROF_UNLIKELY(x) (x)
#endif
