#ifndef RAON_CMALLOC_SHIM_H
#define RAON_CMALLOC_SHIM_H
// glibc's malloc_trim(3), which Swift's Glibc module leaves out.
#include <malloc.h>
#endif
