#ifndef RAON_CXLSXWRITER_SHIM_H
#define RAON_CXLSXWRITER_SHIM_H
#include <xlsxwriter.h>
#endif
