#ifndef RAON_XLSX_DEFLATE_H
#define RAON_XLSX_DEFLATE_H

/// Sets the zlib level (1–9) libxlsxwriter deflates a workbook's parts at, for every
/// workbook saved after the call; -1 restores the library's own (zlib's default, 6).
void raon_xlsx_set_deflate_level(int level);

/// The level last set (-1: the library's own).
int raon_xlsx_deflate_level(void);

#endif
